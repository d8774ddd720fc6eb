import sharp from 'sharp';
import { badRequest } from '../../platform/errors.js';

export const DAMAGED_IMAGE = 'This image file is damaged or not an image.';

/**
 * Width and height of a stored image as it is shown (after its EXIF orientation: a phone photo
 * stored sideways with Orientation 6 has its sides swapped), after checking the pixel limit from
 * the header and then decoding it all once: a header can be fine while the rest of the file is
 * cut off or garbage.
 */
export async function probeImage(path: string, maxPixels: number): Promise<{ width: number; height: number }> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = (await sharp(path, { limitInputPixels: false }).metadata()).autoOrient);
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
  if (!width || !height) throw badRequest(DAMAGED_IMAGE);
  if (width * height > maxPixels) {
    throw badRequest(
      `This image has ${width} x ${height} = ${(width * height).toLocaleString('en')} pixels; the limit is ` +
        `${maxPixels.toLocaleString('en')} pixels (${(maxPixels / 1e6).toLocaleString('en', { maximumFractionDigits: 2 })} megapixels).`,
    );
  }
  try {
    // 'truncated' fails on a cut-off file but not on the harmless warnings real scans often carry.
    await sharp(path, { failOn: 'truncated', limitInputPixels: maxPixels }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
  return { width, height };
}
