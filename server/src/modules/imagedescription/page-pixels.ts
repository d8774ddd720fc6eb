import sharp, { type Metadata } from 'sharp';
import type { GreyPage } from './ink.js';

/** What the file and its pixels say of the image, before any text is looked for. */
export interface PixelFacts {
  /** The image as shown: its EXIF orientation applied. */
  width: number;
  height: number;
  /** The resolution the file states, in dots per inch; null when it states none. */
  dpi: number | null;
  tone: 'colour' | 'greyscale' | 'bitonal';
}

/** The decoded page: its facts, and its pixels in 8-bit grey at `scale` image pixels per page pixel. */
export interface DecodedPage {
  facts: PixelFacts;
  grey: GreyPage;
  scale: number;
}

/**
 * The most pixels of the grey page kept in memory: a 300 dpi A3 page has 17 megapixels, and the
 * text of a larger scan is read well enough from a page this size.
 */
const MAX_GREY_PIXELS = 16_000_000;
/** A pixel is coloured when its channels differ by more than this (paper that yellowed with age is). */
const COLOURED_CHROMA = 24;
/** The image is in colour when more than this share of its pixels are coloured. */
const COLOURED_SHARE = 0.03;
/** Bitonal: at least this share of the pixels is black or white (within `BITONAL_MARGIN` levels). */
const BITONAL_SHARE = 0.995;
const BITONAL_MARGIN = 8;

/**
 * Decodes the image once, upright and on white where it is transparent, into 8-bit grey (RGB only
 * when the file has colour channels, to tell colour from grey), at most `MAX_GREY_PIXELS`. The
 * colour profile is not applied: telling ink from paper needs no colour accuracy, and applying it
 * takes four times as long as the decoding. `maxPixels` is the upload's limit, checked again by
 * libvips; a damaged file throws.
 */
export async function decodePage(path: string, maxPixels: number): Promise<DecodedPage> {
  const meta = await sharp(path, { limitInputPixels: maxPixels }).metadata();
  const { width, height } = meta.autoOrient;
  const factor = Math.min(1, Math.sqrt(MAX_GREY_PIXELS / (width * height)));
  const colourChannels = (meta.channels ?? 3) >= 3 && meta.space !== 'b-w';
  let image = sharp(path, { limitInputPixels: maxPixels, failOn: 'truncated', ignoreIcc: true, autoOrient: true }).flatten({ background: '#ffffff' });
  if (factor < 1) image = image.resize(Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor)), { fit: 'fill' });
  const { data, info } = await (colourChannels ? image.toColourspace('srgb') : image.greyscale()).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const grey = colourChannels ? await greyOf(data, info.width, info.height, info.channels) : ownBuffer(data);
  const oneBit = meta.bitsPerSample === 1;
  const tone = colourChannels && isColoured(data, info.channels) ? 'colour' : oneBit || isBitonal(grey) ? 'bitonal' : 'greyscale';
  return {
    facts: { width, height, dpi: statedDpi(meta), tone },
    grey: { data: grey, width: info.width, height: info.height },
    scale: width / info.width,
  };
}

/** The stated resolution: a file without a unit (a PNG's pHYs of unit 0, a JFIF of aspect ratio only) states none. */
function statedDpi(meta: Metadata): number | null {
  if (!meta.density || !meta.resolutionUnit) return null;
  return Math.round(meta.density);
}

async function greyOf(rgb: Buffer, width: number, height: number, channels: number): Promise<Uint8Array> {
  const { data } = await sharp(rgb, { raw: { width, height, channels: channels as 3 | 4 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return ownBuffer(data);
}

/**
 * The bytes copied into memory of their own: sharp's buffers are the addon's memory, which cannot
 * be handed to a worker thread, while a plain array buffer moves there without a copy.
 */
function ownBuffer(data: Buffer): Uint8Array {
  return new Uint8Array(data);
}

/** Whether enough pixels have colour, looking at about a quarter of a million of them. */
function isColoured(rgb: Buffer, channels: number): boolean {
  const pixels = rgb.length / channels;
  const step = Math.max(1, Math.floor(pixels / 250_000)) * channels;
  let seen = 0;
  let coloured = 0;
  for (let i = 0; i + 2 < rgb.length; i += step) {
    const r = rgb[i]!;
    const g = rgb[i + 1]!;
    const b = rgb[i + 2]!;
    seen += 1;
    if (Math.max(r, g, b) - Math.min(r, g, b) > COLOURED_CHROMA) coloured += 1;
  }
  return coloured > COLOURED_SHARE * seen;
}

/** Whether next to every pixel is black or white: a scan binarised before it was saved. */
function isBitonal(grey: Uint8Array): boolean {
  let extreme = 0;
  for (const v of grey) if (v <= BITONAL_MARGIN || v >= 255 - BITONAL_MARGIN) extreme += 1;
  return extreme >= BITONAL_SHARE * grey.length;
}
