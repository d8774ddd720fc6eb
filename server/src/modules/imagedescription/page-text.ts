import fs from 'node:fs/promises';
import path from 'node:path';
import { detectOrientationScript } from '../../platform/tesseract/osd.js';
import { recogniseBlocks, type TsvWord, wordsOfTsv } from '../../platform/tesseract/recognise.js';
import type { GreyPage } from './ink.js';
import { guessLanguage, type LanguageCode, type LanguageGuess } from './language.js';
import { CROP_DPI, selectLines, writeCrop } from './page-crops.js';
import type { PageLayout } from './page-layout.js';

/**
 * Tesseract's orientation and script detection is believed only above these confidences (its
 * margins over the next-best guess). A medieval charter can come out as "Arabic, turned 180
 * degrees" with an orientation confidence of 0.4 and a script confidence of 1.9: noise. On
 * printed lines both run far higher (Fraktur 25, Latin 4 with orientations of 13 to 27).
 */
export const MIN_ORIENTATION_CONFIDENCE = 5;
export const MIN_SCRIPT_CONFIDENCE = 2.5;
/** Words Tesseract is less sure of than this (0-100) do not count towards the language. */
const MIN_WORD_CONFIDENCE = 60;
/** First words read with a mean confidence below this are shown as uncertain, below the second not at all. */
const SURE_READING = 75;
const MIN_READING = 55;
/** How many first words are given. */
const FIRST_WORDS = 14;

export interface TextFindings {
  /** Set when Tesseract is sure the text is turned (0: upright). */
  orientation: { turnedDegrees: 0 | 90 | 180 | 270; confidence: number } | null;
  script: { name: string; confidence: number } | null;
  language: LanguageGuess | null;
  /** The first words as read, or null when they could not be read with any confidence. */
  firstWords: { text: string; confidence: number; certain: boolean; model: string } | null;
}

export interface ReadOptions {
  /** Only orientation and script: the words are known already (a transcription PIM holds). */
  withoutWords: boolean;
  /** The Tesseract models installed, to read the first words again in the language found. */
  models: ReadonlySet<string>;
  signal?: AbortSignal;
}

/**
 * Reads what Tesseract can tell of the page's text from two crops, never the whole page: a block
 * from the middle of the longest column (orientation, script and language) and the first lines
 * (the first words). Orientation and script detection runs beside the English reading of both
 * crops; when the words are in another language whose model is installed, the first lines are
 * read again with it. Null when the layout found no lines.
 */
export async function readPageText(page: GreyPage, layout: PageLayout, workDir: string, options: ReadOptions): Promise<TextFindings | null> {
  const lines = selectLines(layout);
  if (!lines) return null;
  const scale = page.width / layout.width;
  const body = path.join(workDir, 'body.tif');
  const first = path.join(workDir, 'first.tif');
  await Promise.all([
    writeCrop(page, scale, lines.body, lines.bodyPitch, body),
    options.withoutWords ? undefined : writeCrop(page, scale, lines.first, lines.firstPitch, first),
  ]);
  const [osd, words] = await Promise.all([
    detectOrientationScript(body, CROP_DPI, options.signal),
    options.withoutWords ? null : readBlocks(workDir, [first, body], 'eng', options.signal),
  ]);
  const orientation = osd && osd.orientationConfidence >= MIN_ORIENTATION_CONFIDENCE ? { turnedDegrees: osd.turnedDegrees, confidence: osd.orientationConfidence } : null;
  const script =
    orientation && osd && osd.scriptConfidence >= MIN_SCRIPT_CONFIDENCE ? { name: osd.script, confidence: osd.scriptConfidence } : null;
  if (!words) return { orientation, script, language: null, firstWords: null };
  const language = guessLanguage(words.flat().filter((w) => (w.confidence ?? 0) >= MIN_WORD_CONFIDENCE).map((w) => w.text));
  let firstLines = words[0]!;
  let model = 'eng';
  const better = language && language.code !== 'eng' && options.models.has(language.code) ? language.code : null;
  if (better) {
    firstLines = (await readBlocks(workDir, [first], better, options.signal))[0]!;
    model = better;
  }
  return { orientation, script, language, firstWords: firstWordsOf(firstLines, model) };
}

/** The crops read in one Tesseract run (the model loads once), their words per crop. */
async function readBlocks(workDir: string, crops: string[], language: LanguageCode, signal?: AbortSignal): Promise<TsvWord[][]> {
  const list = path.join(workDir, `blocks-${language}.txt`);
  await fs.writeFile(list, `${crops.join('\n')}\n`);
  return wordsOfTsv(await recogniseBlocks(list, { language }, CROP_DPI, signal), crops.length);
}

function firstWordsOf(words: TsvWord[], model: string): TextFindings['firstWords'] {
  const taken = words.slice(0, FIRST_WORDS);
  if (taken.length === 0) return null;
  const confidence = taken.reduce((n, w) => n + (w.confidence ?? 0), 0) / taken.length;
  if (confidence < MIN_READING) return null;
  const text = taken.map((w) => w.text).join(' ') + (words.length > taken.length ? ' …' : '');
  return { text, confidence: Math.round(confidence), certain: confidence >= SURE_READING, model };
}
