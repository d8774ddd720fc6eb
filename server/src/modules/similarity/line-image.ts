import sharp from 'sharp';
import { otsuThreshold, type LineImage } from './descriptor.js';

export { otsuThreshold, type LineImage };

/** A text line's box in image pixels (the upright image: its EXIF orientation applied). */
export interface LineBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LineImageOptions {
  /** The height every line is scaled to, keeping its aspect ratio (default `LINE_IMAGE_HEIGHT`). */
  height?: number;
  /** Binarise the scaled line with Otsu's threshold: ink 0, background 255 (default false). */
  binarize?: boolean;
  /** The widest line returned (default `LINE_IMAGE_MAX_WIDTH`); a longer one keeps its left part. */
  maxWidth?: number;
}

/** The height lines are normalised to: a handful of x-heights, enough for stroke shapes and widths. */
export const LINE_IMAGE_HEIGHT = 64;
/**
 * A line is cut, not squashed, to this width at the normalised height: squashing would bend the
 * stroke directions and widths the descriptor measures. 2000 px at 64 px high is over 30 line
 * heights, far more than writer statistics need.
 */
export const LINE_IMAGE_MAX_WIDTH = 2000;

/** A page in 8-bit grey, decoded once. */
interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The box clamped to a `width` x `height` image, in whole pixels; null when nothing of it lies inside. */
export function clampBox(box: LineBox, width: number, height: number): { left: number; top: number; width: number; height: number } | null {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const right = Math.min(width, Math.ceil(box.x + box.w));
  const bottom = Math.min(height, Math.ceil(box.y + box.h));
  if (!(right > left && bottom > top)) return null;
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * One text line of a page image as the descriptor reads it: the box (clamped to the image) in
 * 8-bit grey, scaled to `height` keeping its aspect ratio, optionally binarised. A box wholly
 * outside the image gives an empty line (width and height 0, no pixels), which describes as zeros.
 * Gives the same pixels as `readLineImages` for the same box. Throws when sharp cannot decode the
 * image.
 */
export async function readLineImage(input: string | Buffer, box: LineBox, options: LineImageOptions = {}): Promise<LineImage> {
  const { width, height } = (await sharp(input, { limitInputPixels: false }).metadata()).autoOrient;
  const region = clampBox(box, width, height);
  if (!region) return emptyLine();
  const { data, info } = await greyPipeline(input).extract(region).raw().toBuffer({ resolveWithObject: true });
  return normaliseLine({ data, width: info.width, height: info.height }, options);
}

/**
 * Every box of one page image, in order, decoding the page once (a job crops every line of a
 * page). Each line is as `readLineImage` gives it. Throws when sharp cannot decode the image.
 */
export async function readLineImages(input: string | Buffer, boxes: readonly LineBox[], options: LineImageOptions = {}): Promise<LineImage[]> {
  if (boxes.length === 0) return [];
  const { data, info } = await greyPipeline(input).raw().toBuffer({ resolveWithObject: true });
  const page: GreyImage = { data, width: info.width, height: info.height };
  const lines: LineImage[] = [];
  for (const box of boxes) {
    const region = clampBox(box, page.width, page.height);
    lines.push(region ? await normaliseLine(cropGrey(page, region), options) : emptyLine());
  }
  return lines;
}

/** Upright, on white where transparent, one 8-bit grey channel: what both readers cut from. */
function greyPipeline(input: string | Buffer) {
  return sharp(input, { limitInputPixels: false, autoOrient: true }).flatten({ background: '#ffffff' }).toColourspace('b-w');
}

function cropGrey(page: GreyImage, r: { left: number; top: number; width: number; height: number }): GreyImage {
  const data = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y += 1) {
    const from = (r.top + y) * page.width + r.left;
    data.set(page.data.subarray(from, from + r.width), y * r.width);
  }
  return { data, width: r.width, height: r.height };
}

async function normaliseLine(crop: GreyImage, options: LineImageOptions): Promise<LineImage> {
  const height = Math.max(1, Math.round(options.height ?? LINE_IMAGE_HEIGHT));
  const maxWidth = Math.max(1, Math.round(options.maxWidth ?? LINE_IMAGE_MAX_WIDTH));
  const scale = height / crop.height;
  // Cut the source before scaling, so the kept part is scaled exactly as the whole line would be.
  const keptColumns = Math.min(crop.width, Math.max(1, Math.ceil(maxWidth / scale)));
  const source = keptColumns < crop.width ? cropGrey(crop, { left: 0, top: 0, width: keptColumns, height: crop.height }) : crop;
  const width = Math.min(maxWidth, Math.max(1, Math.round(source.width * scale)));
  let pixels: Uint8Array = source.data;
  if (width !== source.width || height !== source.height) {
    const scaled = await sharp(source.data, { raw: { width: source.width, height: source.height, channels: 1 } })
      .resize(width, height, { fit: 'fill' })
      // Without this sharp writes one-channel raw input back out as three-channel sRGB.
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    pixels = new Uint8Array(scaled.buffer, scaled.byteOffset, scaled.length);
  }
  if (options.binarize) pixels = binarizePixels(pixels);
  return { pixels, width, height };
}

/** Otsu's split of the pixels: ink (at or below the threshold) 0, background 255. */
export function binarizePixels(pixels: Uint8Array): Uint8Array {
  const threshold = otsuThreshold(pixels);
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i += 1) out[i] = pixels[i]! <= threshold ? 0 : 255;
  return out;
}

function emptyLine(): LineImage {
  return { pixels: new Uint8Array(0), width: 0, height: 0 };
}
