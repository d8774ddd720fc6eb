import sharp from 'sharp';

/**
 * Tesseract wants about 300 dpi, which an A3 page has at 17 megapixels; a scan much larger than
 * that only costs time and memory, so it is read downscaled to this many pixels.
 */
export const TESSERACT_MAX_PIXELS = 40_000_000;

/** The image could not be decoded: a damaged file, or not an image. Only its page fails. */
export class PageImageError extends Error {
  constructor(cause: unknown) {
    super('The image file is damaged or not an image.', { cause });
    this.name = 'PageImageError';
  }
}

/** The page as Tesseract reads it, and how its pixels map back to the image's. */
export interface PreparedPage {
  path: string;
  width: number;
  height: number;
  /** Image pixels per prepared pixel, per axis: 1 unless the page was downscaled. */
  scaleX: number;
  scaleY: number;
}

/**
 * Writes the image as Tesseract should read it: upright (its EXIF orientation applied, as every
 * size and region of PIM is), on white where it was transparent, in 8-bit grey (Tesseract
 * binarises grey anyway), as an uncompressed TIFF, fast to write and to read. Throws when sharp
 * cannot decode the image (a damaged file).
 */
export async function preparePage(source: string, target: string, maxPixels = TESSERACT_MAX_PIXELS): Promise<PreparedPage> {
  try {
    const { width, height } = (await sharp(source, { limitInputPixels: false }).metadata()).autoOrient;
    if (!width || !height) throw new Error('The image has no size.');
    const factor = width * height > maxPixels ? Math.sqrt(maxPixels / (width * height)) : 1;
    const size = { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
    let image = sharp(source, { limitInputPixels: false, failOn: 'truncated', autoOrient: true }).flatten({ background: '#ffffff' });
    if (factor < 1) image = image.resize(size.width, size.height, { fit: 'fill' });
    await image.toColourspace('b-w').tiff({ compression: 'none' }).toFile(target);
    return { path: target, ...size, scaleX: width / size.width, scaleY: height / size.height };
  } catch (err) {
    throw new PageImageError(err);
  }
}

/** A box in the prepared page's pixels. */
export interface CropBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** White added around a line's crop: Tesseract misreads glyphs that touch the image's edge. */
export const CROP_MARGIN = 10;

/** Writes one line's box of the prepared page, with a white margin, as a PNG. */
export async function cropLine(page: PreparedPage, box: CropBox, target: string): Promise<void> {
  const m = CROP_MARGIN;
  await sharp(page.path)
    .extract(box)
    .extend({ top: m, bottom: m, left: m, right: m, background: '#ffffff' })
    .png({ compressionLevel: 1 })
    .toFile(target);
}
