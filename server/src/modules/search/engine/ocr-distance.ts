/**
 * Edit distance for OCR text: insertions, deletions, substitutions and swaps of neighbours cost 1,
 * but the confusions OCR makes all the time cost less: a long s read as f, c for e, rn for m.
 * So "monatsfchrift" is half an edit from "monatsschrift", "rnorgen" one from "morgen".
 */

/** Single letters OCR takes for each other: substituting one for the other costs 0.5. */
const CLOSE_LETTERS = ['fs', 'ce', 'il', 'l1', 'i1', 'o0', 'un', 'vy', 'hb', 'ao', 'tf', 'rt'];
const CLOSE = new Set(CLOSE_LETTERS.flatMap(([a, b]) => [`${a}${b}`, `${b}${a}`]));

/** Letter groups read as one letter (or the reverse): replacing one by the other costs 1. */
const GROUPS: [string, string][] = [
  ['rn', 'm'],
  ['ii', 'u'],
  ['ii', 'n'],
  ['in', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
  ['li', 'h'],
  ['ri', 'n'],
];
const GROUP_PAIRS = GROUPS.flatMap(([a, b]) => [
  [a, b],
  [b, a],
]) as [string, string][];

function substitution(a: string, b: string): number {
  if (a === b) return 0;
  return CLOSE.has(a + b) ? 0.5 : 1;
}

/** The OCR-aware distance between two terms; stops early and returns Infinity past `max`. */
export function ocrDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max * 2) return Infinity;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) d[i]![0] = i;
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Infinity;
    for (let j = 1; j < cols; j++) {
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + substitution(a[i - 1]!, b[j - 1]!));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      for (const [from, to] of GROUP_PAIRS) {
        if (i >= from.length && j >= to.length && a.endsWith(from, i) && b.endsWith(to, j)) {
          best = Math.min(best, d[i - from.length]![j - to.length]! + 1);
        }
      }
      d[i]![j] = best;
      rowMin = Math.min(rowMin, best);
    }
    if (rowMin > max) return Infinity;
  }
  return d[a.length]![b.length]!;
}

/** Elasticsearch's AUTO fuzziness: exact up to 2 characters, 1 edit up to 5, else 2. */
export function allowedEdits(fuzziness: 0 | 1 | 2 | 'AUTO', term: string): number {
  if (fuzziness !== 'AUTO') return fuzziness;
  const length = [...term].length;
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}
