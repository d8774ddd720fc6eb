import { TesseractError, runTesseract } from './cli.js';

/**
 * What Tesseract's orientation and script detection (`--psm 0`, the `osd` model) says of an image.
 * The confidences are Tesseract's own margins between its best and next-best guess: a low one
 * means the guess is little better than the others, and must not be reported as a fact.
 */
export interface OrientationScript {
  /** How far the text is turned clockwise: 0, 90, 180 or 270 degrees. */
  turnedDegrees: 0 | 90 | 180 | 270;
  orientationConfidence: number;
  /** Tesseract's name of the script ("Latin", "Fraktur", "Greek", "Arabic", ...). */
  script: string;
  scriptConfidence: number;
}

/**
 * Runs orientation and script detection on the image, which should hold some lines of text at
 * about 300 dpi (`dpi` says what it is at). Null when Tesseract finds too few characters to judge.
 */
export async function detectOrientationScript(imagePath: string, dpi: number, signal?: AbortSignal): Promise<OrientationScript | null> {
  let stdout: Buffer;
  try {
    ({ stdout } = await runTesseract([imagePath, '-', '--psm', '0', '--dpi', String(Math.round(dpi))], signal));
  } catch (err) {
    if (err instanceof TesseractError && err.failure === 'input' && /too few characters/i.test(err.stderr)) return null;
    throw err;
  }
  return parseOsd(stdout.toString('utf8'));
}

/** Tesseract's OSD report ("Orientation in degrees: 180", "Script: Latin", ...); null when it has none. */
export function parseOsd(report: string): OrientationScript | null {
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(report)?.[1]?.trim();
  const degrees = Number(field('Orientation in degrees'));
  const orientationConfidence = Number(field('Orientation confidence'));
  const script = field('Script');
  const scriptConfidence = Number(field('Script confidence'));
  if (![0, 90, 180, 270].includes(degrees) || !script || !Number.isFinite(orientationConfidence) || !Number.isFinite(scriptConfidence)) return null;
  return { turnedDegrees: degrees as OrientationScript['turnedDegrees'], orientationConfidence, script, scriptConfidence };
}
