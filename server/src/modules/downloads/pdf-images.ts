import sharp, { type Metadata } from 'sharp';
import type { PdfJpeg } from './pdf-stream.js';

/** JPEG's own limit on a side; a longer image is scaled down to fit rather than failing the PDF. */
const JPEG_MAX_SIDE = 65535;
const JPEG_QUALITY = 90;
/** Frames every PDF reader decodes: baseline, extended sequential and progressive, Huffman coded. */
const PLAIN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);

/**
 * The file as it is, when a PDF reader can show it unchanged: an 8-bit grey or colour JPEG of a
 * kind every reader decodes, not turned by an EXIF orientation (a PDF does not read EXIF).
 * CMYK is left to `convertToJpeg`: readers disagree on the inverted CMYK Adobe programs write.
 */
export function embeddableJpeg(bytes: Buffer, meta: Metadata): PdfJpeg | null {
  if (meta.format !== 'jpeg' || (meta.orientation ?? 1) !== 1 || meta.depth !== 'uchar') return null;
  if (meta.channels !== 1 && meta.channels !== 3) return null;
  const frame = jpegFrame(bytes);
  if (!frame || !PLAIN_FRAMES.has(frame.marker) || frame.precision !== 8 || frame.components !== meta.channels) return null;
  const icc = meta.icc && iccSpace(meta.icc) === (meta.channels === 1 ? 'GRAY' : 'RGB ') ? meta.icc : undefined;
  return { data: bytes, width: meta.width, height: meta.height, components: meta.channels, icc };
}

/** Any image as an upright JPEG: EXIF orientation applied, transparency on white, sRGB or grey. */
export async function convertToJpeg(input: string | Buffer): Promise<PdfJpeg> {
  const { data, info } = await sharp(input, { limitInputPixels: false })
    .rotate()
    .resize({ width: JPEG_MAX_SIDE, height: JPEG_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 && info.channels !== 3) throw new Error(`sharp wrote a JPEG with ${info.channels} channels`);
  return { data, width: info.width, height: info.height, components: info.channels };
}

/** The start-of-frame marker of a JPEG and what it declares, or null when there is none before the scan. */
export function jpegFrame(bytes: Buffer): { marker: number; precision: number; components: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes before a marker, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 10 > bytes.length) return null;
      return { marker, precision: bytes[at + 4]!, components: bytes[at + 9]! };
    }
    at += 2 + length;
  }
  return null;
}

/** The colour space an ICC profile's header names ('RGB ', 'GRAY', 'CMYK', ...). */
function iccSpace(profile: Buffer): string {
  return profile.length >= 20 ? profile.subarray(16, 20).toString('latin1') : '';
}
