import sharp from 'sharp';

/** Above this many pixels on a side an image gets a pyramidal tiled TIFF, so tiles stay fast. */
export const PYRAMID_THRESHOLD = 4000;
export const TILE_SIZE = 512;

export function needsPyramid(width: number, height: number): boolean {
  return Math.max(width, height) > PYRAMID_THRESHOLD;
}

/** The pixel work of one IIIF request, already resolved against the image (see image-request.ts). */
export interface RenderPlan {
  region: { x: number; y: number; w: number; h: number };
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  mirror: boolean;
  quality: 'default' | 'color' | 'gray' | 'bitonal';
  format: 'jpg' | 'png' | 'webp';
}

/**
 * Where the pixels come from: the original file, and its pyramid with the size of each level.
 * width and height are the upright (EXIF-oriented) size, the one every IIIF coordinate refers to.
 */
export interface RenderSource {
  originalPath: string;
  width: number;
  height: number;
  pyramid?: { path: string; levels: { width: number; height: number }[] };
}

export const FORMAT_MEDIA_TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/**
 * orient → extract → resize → mirror/rotate → colour → encode, reading from the smallest fitting
 * level. The EXIF orientation is applied first, so regions are cut from the upright image; a
 * pyramid was written upright and has no orientation tag, so orienting it again changes nothing.
 */
export async function renderIiif(source: RenderSource, plan: RenderPlan): Promise<Buffer> {
  const { input, region } = chooseLevel(source, plan);
  let img = sharp(input.path, { page: input.page, limitInputPixels: false, autoOrient: true })
    .extract({ left: region.x, top: region.y, width: region.w, height: region.h })
    .resize(plan.width, plan.height, { fit: 'fill', kernel: 'lanczos3' });
  // sharp mirrors before it rotates, which is the order the IIIF spec asks for.
  if (plan.mirror) img = img.flop();
  if (plan.rotation !== 0) img = img.rotate(plan.rotation);
  if (plan.quality === 'gray') img = img.grayscale();
  if (plan.quality === 'bitonal') img = img.threshold(128);
  switch (plan.format) {
    case 'jpg':
      return img.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
    case 'png':
      return img.png().toBuffer();
    case 'webp':
      return img.webp({ quality: 85 }).toBuffer();
  }
}

/**
 * The deepest pyramid level that still has at least the requested resolution, and the region in
 * that level's pixels. Without a pyramid, the original (sharp shrinks JPEGs on load by itself).
 */
function chooseLevel(source: RenderSource, plan: RenderPlan): { input: { path: string; page: number }; region: RenderPlan['region'] } {
  const original = { input: { path: source.originalPath, page: 0 }, region: plan.region };
  const levels = source.pyramid?.levels;
  if (!source.pyramid || !levels?.length) return original;
  const needed = Math.max(plan.width / plan.region.w, plan.height / plan.region.h);
  let page = 0;
  for (let i = 0; i < levels.length; i++) {
    if (levels[i]!.width / source.width >= needed && levels[i]!.height / source.height >= needed) page = i;
  }
  const level = levels[page]!;
  const fx = level.width / source.width;
  const fy = level.height / source.height;
  const left = Math.min(Math.floor(plan.region.x * fx), level.width - 1);
  const top = Math.min(Math.floor(plan.region.y * fy), level.height - 1);
  const right = Math.min(Math.ceil((plan.region.x + plan.region.w) * fx), level.width);
  const bottom = Math.min(Math.ceil((plan.region.y + plan.region.h) * fy), level.height);
  return {
    input: { path: source.pyramid.path, page },
    region: { x: left, y: top, w: Math.max(1, right - left), h: Math.max(1, bottom - top) },
  };
}

/**
 * A pyramidal tiled TIFF of the upright image (JPEG-compressed tiles, each level half the
 * previous). Its pixels are already oriented and it carries no metadata, so no orientation tag.
 */
export async function buildPyramid(originalPath: string): Promise<Buffer> {
  return sharp(originalPath, { limitInputPixels: false, autoOrient: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .tiff({ tile: true, tileWidth: TILE_SIZE, tileHeight: TILE_SIZE, pyramid: true, compression: 'jpeg', quality: 90 })
    .toBuffer();
}

/**
 * The width and height of every level of a pyramidal TIFF, largest first. The first tile of an
 * image waits for this (once per process), so the levels after the first are read side by side.
 */
export async function pyramidLevels(path: string): Promise<{ width: number; height: number }[]> {
  const { pages = 1, width, height } = await sharp(path).metadata();
  const smaller = Array.from({ length: pages - 1 }, (_, i) => sharp(path, { page: i + 1 }).metadata());
  return [{ width, height }, ...(await Promise.all(smaller)).map((m) => ({ width: m.width, height: m.height }))];
}
