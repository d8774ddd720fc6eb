import { type CharacterConfusion, NORMALISATIONS } from '@pim/contract';
import { toCsvTables } from '../../../modules/metadata/csv.js';
import { COMPARE_NORMALISATION, type ComparedTexts } from './compare-task.js';
import type { ComparedPair } from './compared-pair.js';

/** The confusions the report lists, most frequent first. */
export const TOP_CONFUSIONS = 100;

const IMAGE_HEADER = [
  'image', 'label', 'reference', 'hypothesis', 'reference characters', 'hypothesis characters', 'character errors', 'CER',
  'reference words', 'word errors', 'WER', 'note',
];
const CONFUSION_HEADER = ['reference character', 'reference code point', 'hypothesis character', 'hypothesis code point', 'count'];

const rate = (errors: number, of: number) => (of === 0 ? (errors === 0 ? 0 : 1) : errors / of).toFixed(4);
const codePoint = (ch: string) => (ch === '' ? '' : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);

/**
 * ScriptCompare's CSV, one file of three tables: a row per image (its measures, or why it has
 * none), the summary over the set (rates over all characters and words, not a mean of the
 * images' rates, so a long page counts for more than a short one), and the most frequent
 * character confusions summed over the set (an empty cell: a character missing on that side).
 */
export class CompareReport {
  private readonly rows: string[][] = [];
  private readonly confusions = new Map<string, CharacterConfusion>();
  readonly totals = { images: 0, compared: 0, skipped: 0, referenceCharacters: 0, characterErrors: 0, referenceWords: 0, wordErrors: 0 };

  compared(image: { id: string; label: string }, pair: ComparedPair, { comparison: c, confusions }: ComparedTexts): void {
    this.totals.images += 1;
    this.totals.compared += 1;
    this.totals.referenceCharacters += c.referenceLength;
    this.totals.characterErrors += c.distance;
    this.totals.referenceWords += c.referenceWords;
    this.totals.wordErrors += c.wordDistance;
    for (const confusion of confusions) {
      const key = `${confusion.reference}\u0000${confusion.hypothesis}`;
      const sum = this.confusions.get(key);
      if (sum) sum.count += confusion.count;
      else this.confusions.set(key, { ...confusion });
    }
    this.rows.push([
      image.id, image.label, pair.reference, pair.hypothesis, String(c.referenceLength), String(c.hypothesisLength), String(c.distance),
      c.cer.toFixed(4), String(c.referenceWords), String(c.wordDistance), c.wer.toFixed(4), '',
    ]);
  }

  skipped(image: { id: string; label: string }, note: string): void {
    this.totals.images += 1;
    this.totals.skipped += 1;
    this.rows.push([image.id, image.label, '', '', '', '', '', '', '', '', '', note]);
  }

  /** The most frequent confusions over the set; ties in code-unit order, so the table is the same on every run. */
  topConfusions(limit = TOP_CONFUSIONS): CharacterConfusion[] {
    const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    return [...this.confusions.values()]
      .sort((x, y) => y.count - x.count || order(x.reference, y.reference) || order(x.hypothesis, y.hypothesis))
      .slice(0, limit);
  }

  csv(setName: string): string {
    const t = this.totals;
    const normalisation = NORMALISATIONS.find((n) => n.id === COMPARE_NORMALISATION)!.label;
    const summary = [
      ['image set', setName],
      ['images', String(t.images)],
      ['images compared', String(t.compared)],
      ['images without a pair to compare', String(t.skipped)],
      ['normalisation', normalisation],
      ['reference characters', String(t.referenceCharacters)],
      ['character errors', String(t.characterErrors)],
      ['CER', rate(t.characterErrors, t.referenceCharacters)],
      ['reference words', String(t.referenceWords)],
      ['word errors', String(t.wordErrors)],
      ['WER', rate(t.wordErrors, t.referenceWords)],
    ];
    const confusions = this.topConfusions().map((c) => [c.reference, codePoint(c.reference), c.hypothesis, codePoint(c.hypothesis), String(c.count)]);
    return toCsvTables([
      { header: IMAGE_HEADER, rows: this.rows },
      { header: ['summary', 'value'], rows: summary },
      { header: CONFUSION_HEADER, rows: confusions },
    ]);
  }
}
