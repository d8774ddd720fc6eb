import sharp from 'sharp';
import type { GreyPage } from './ink.js';
import type { LayoutLine, PageLayout } from './page-layout.js';

/**
 * Lines are cut out scaled so that one line follows the next this many pixels below: about 12 pt
 * type at 300 dpi, the size Tesseract reads best (and what it is told the resolution is).
 */
export const CROP_PITCH = 50;
export const CROP_DPI = 300;
/** White added around a crop: Tesseract misreads glyphs that touch the image's edge. */
const CROP_MARGIN = 12;
/** Never enlarged or shrunk more than this: a page of huge or tiny script is read as it comes. */
const MIN_SCALE = 0.4;
const MAX_SCALE = 3;

/** The first lines of the page for its first words, and a block from the middle of its longest column. */
export interface LineSelection {
  first: LayoutLine[];
  body: LayoutLine[];
  /** The line pitch of the columns they come from, in layout pixels. */
  firstPitch: number;
  bodyPitch: number;
}

/** How many lines are read for the first words, and how many make the sample of the body. */
const FIRST_LINES = 3;
const BODY_LINES = 6;

/** Null when the layout found no lines. */
export function selectLines(layout: PageLayout): LineSelection | null {
  const first = layout.columns[0];
  if (!first) return null;
  const longest = layout.columns.reduce((a, b) => (b.lines.length > a.lines.length ? b : a));
  const middle = Math.max(0, Math.floor((longest.lines.length - BODY_LINES) / 2));
  return {
    first: first.lines.slice(0, FIRST_LINES),
    body: longest.lines.slice(middle, middle + BODY_LINES),
    firstPitch: first.pitch,
    bodyPitch: longest.pitch,
  };
}

/**
 * Writes the box around `lines` (in the pixels of the layout, which is `layoutScale` grey pixels
 * per layout pixel) from the grey page, scaled to the crop pitch, with a white margin, as an
 * uncompressed TIFF (fast to write and to read).
 */
export async function writeCrop(page: GreyPage, layoutScale: number, lines: LayoutLine[], pitch: number, target: string): Promise<void> {
  const pad = pitch * 0.3;
  const left = Math.max(0, Math.floor((Math.min(...lines.map((l) => l.left)) - pad) * layoutScale));
  const top = Math.max(0, Math.floor((Math.min(...lines.map((l) => l.top)) - pad) * layoutScale));
  const right = Math.min(page.width, Math.ceil((Math.max(...lines.map((l) => l.right)) + pad) * layoutScale));
  const bottom = Math.min(page.height, Math.ceil((Math.max(...lines.map((l) => l.bottom)) + pad) * layoutScale));
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, CROP_PITCH / Math.max(1, pitch * layoutScale)));
  const width = right - left;
  const height = bottom - top;
  await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } })
    .extract({ left, top, width, height })
    .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: 'fill' })
    .extend({ top: CROP_MARGIN, bottom: CROP_MARGIN, left: CROP_MARGIN, right: CROP_MARGIN, background: '#ffffff' })
    .greyscale()
    .tiff({ compression: 'none' })
    .toFile(target);
}
