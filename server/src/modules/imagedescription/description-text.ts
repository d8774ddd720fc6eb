import { languageOf } from '../models/languages.js';
import type { PageDescription } from './describe-page.js';
import { LANGUAGES, type LanguageCode } from './language.js';
import type { StoredImage } from './repository.js';
import type { VisionAnswer } from './vision.js';

export interface DescriptionParts {
  page: PageDescription;
  /** The same image as PIM holds it, when the caller may read it. */
  stored: StoredImage | null;
  vision: { label: string; answer: VisionAnswer } | null;
}

/** How many first words of a stored transcription are given. */
const FIRST_WORDS = 14;
/** What cameras and image software write when they know no resolution: no size in cm follows from them. */
const SOFTWARE_DEFAULT_DPI = new Set([72, 96]);
/** Skew below this many degrees is no skew worth mentioning. */
const NOTICEABLE_SKEW = 0.1;

/**
 * The description as plain text, one finding a line ("Size: ...", "Text: ..."): the built-in
 * facts first, what PIM's transcription says where it has one (and saying so), then the vision
 * model's description under its name, or why it gave none. Findings Tesseract was not sure of are
 * left out or marked as uncertain; line counts from pixels are estimates and say so.
 */
export function descriptionText({ page, stored, vision }: DescriptionParts): string {
  const lines = [sizeLine(page), toneLine(page)];
  if (stored) lines.push(storedLine(stored));
  if (page.blank) {
    lines.push('Content: a blank page: no text or drawing was found on it.');
  } else {
    lines.push(...textLines(page, stored?.transcription ?? null));
  }
  const text = lines.join('\n');
  if (!vision) return text;
  const said = vision.answer.ok
    ? vision.answer.text
    : `It could not describe this image: ${vision.answer.reason}. The description above is PIM's own.`;
  return `${text}\n\nVision model (${vision.label}):\n${said}`;
}

function sizeLine({ pixels }: PageDescription): string {
  const { width, height, dpi } = pixels;
  const shape = width > height * 1.02 ? 'landscape' : height > width * 1.02 ? 'portrait' : 'square';
  const cm = (px: number) => ((px / dpi!) * 2.54).toLocaleString('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const resolution = !dpi
    ? ' (the file states no resolution)'
    : SOFTWARE_DEFAULT_DPI.has(dpi)
      ? ` at ${dpi} dpi (a common software default, not a scan resolution: the page's real size is unknown)`
      : ` at ${dpi} dpi (${cm(width)} × ${cm(height)} cm)`;
  return `Size: ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels${resolution}, ${shape}.`;
}

function toneLine({ pixels }: PageDescription): string {
  const tone = { colour: 'colour', greyscale: 'greyscale', bitonal: 'bitonal (black and white only)' }[pixels.tone];
  return `Colour: ${tone}.`;
}

function storedLine(stored: StoredImage): string {
  const t = stored.transcription;
  if (!t) return `In PIM: this image is stored as "${stored.label}", without a transcription.`;
  const source = t.sourceFileName ? `${formatName(t.format)} file ${t.sourceFileName}` : formatName(t.format);
  return `In PIM: this image is stored as "${stored.label}"; the lines, language and first words below are from its newest transcription (${source}).`;
}

function formatName(format: string): string {
  return { page: 'PAGE XML', alto: 'ALTO XML', hocr: 'hOCR' }[format.toLowerCase()] ?? format;
}

function textLines(page: PageDescription, transcription: StoredImage['transcription']): string[] {
  const out: string[] = [];
  const columns = page.columns === 1 ? 'one column' : `${page.columns} columns`;
  const skew = skewText(page.skewDegrees);
  if (transcription) {
    out.push(`Text: ${plural(transcription.lines, 'line')} in PIM's transcription; ${columns} found in the image${skew}.`);
  } else if (page.lines > 0) {
    out.push(`Text: about ${plural(page.lines, 'line')} in ${columns} (estimated from the image)${skew}.`);
  } else {
    out.push('Text: no lines of text were found.');
  }
  if (page.textUnavailable) {
    out.push(`Script, language and first words: not read: ${page.textUnavailable}`);
  }
  const text = page.text;
  if (text?.orientation) out.push(orientationLine(text.orientation));
  if (text?.script) out.push(`Script: ${text.script.name} (Tesseract, confidence ${text.script.confidence.toFixed(1)}).`);
  else if (text && !page.textUnavailable) out.push('Script: not recognised with confidence (handwriting, or a script Tesseract does not know).');
  if (transcription) {
    out.push(...storedWords(transcription));
    return out;
  }
  if (!text) return out;
  if (text.language) {
    const { name, certainty, hits, words } = text.language;
    out.push(`Language: ${certainty === 'sure' ? name : `probably ${name}`} (${hits} of ${words} words read are common ${name} words).`);
  } else {
    out.push('Language: not determined (too few words could be read with confidence).');
  }
  const first = text.firstWords;
  if (!first) {
    out.push('First words: could not be read reliably.');
  } else {
    const model = LANGUAGES[first.model as LanguageCode] ?? first.model;
    const how = `Tesseract with its ${model} model, confidence ${first.confidence}%`;
    out.push(first.certain ? `First words: "${first.text}" (${how}).` : `First words (uncertain): "${first.text}" (${how}).`);
  }
  return out;
}

function storedWords(transcription: NonNullable<StoredImage['transcription']>): string[] {
  const out: string[] = [];
  if (transcription.language) out.push(`Language: ${languageOf(transcription.language)?.name ?? transcription.language} (from PIM's transcription).`);
  const words = transcription.text.split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    const more = words.length > FIRST_WORDS ? ' …' : '';
    out.push(`First words (from PIM's transcription): "${words.slice(0, FIRST_WORDS).join(' ')}${more}".`);
  }
  return out;
}

function orientationLine({ turnedDegrees, confidence }: { turnedDegrees: number; confidence: number }): string {
  const sure = `Tesseract, confidence ${confidence.toFixed(1)}`;
  if (turnedDegrees === 0) return `Orientation: the text is upright (${sure}).`;
  const back = turnedDegrees === 180 ? 'turn the image 180°' : `turn the image 90° ${turnedDegrees === 90 ? 'anticlockwise' : 'clockwise'}`;
  const what = turnedDegrees === 180 ? 'upside down' : `turned ${turnedDegrees}° clockwise`;
  return `Orientation: the text is ${what} (${sure}); ${back} to read it. The text findings below are from the page turned upright.`;
}

function skewText(degrees: number | null): string {
  if (degrees === null) return '';
  if (Math.abs(degrees) < NOTICEABLE_SKEW) return ', not skewed';
  const way = degrees > 0 ? 'clockwise' : 'anticlockwise';
  return `, skewed ${Math.abs(degrees).toFixed(1)}° ${way}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
