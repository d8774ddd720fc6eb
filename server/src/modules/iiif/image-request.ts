import { THUMBNAIL_BOX } from '@pim/contract';
import { badRequest } from '../../platform/errors.js';

/**
 * The IIIF Image API 3 request `{region}/{size}/{rotation}/{quality}.{format}`: parsed (syntax
 * errors are 400s naming the bad part), then resolved against the image into pixel numbers.
 * https://iiif.io/api/image/3.0/#4-image-requests
 */

export const IIIF_FORMATS = ['jpg', 'png', 'webp'] as const;
export const IIIF_QUALITIES = ['default', 'color', 'gray', 'bitonal'] as const;
export type IiifFormat = (typeof IIIF_FORMATS)[number];
export type IiifQuality = (typeof IIIF_QUALITIES)[number];

/** Server limits advertised in info.json; `max` never returns more than these. */
export const IIIF_LIMITS = { maxWidth: 10_000, maxHeight: 10_000, maxArea: 36_000_000 } as const;

type Region =
  | { kind: 'full' }
  | { kind: 'square' }
  | { kind: 'pixels'; x: number; y: number; w: number; h: number }
  | { kind: 'percent'; x: number; y: number; w: number; h: number };

type Size = { upscale: boolean } & (
  | { kind: 'max' }
  | { kind: 'percent'; n: number }
  | { kind: 'width'; w: number }
  | { kind: 'height'; h: number }
  | { kind: 'exact'; w: number; h: number }
  | { kind: 'confined'; w: number; h: number }
);

export interface ParsedImageRequest {
  region: Region;
  size: Size;
  rotation: { degrees: 0 | 90 | 180 | 270; mirror: boolean };
  quality: IiifQuality;
  format: IiifFormat;
}

/** What to do with the pixels: extract this rectangle, scale it to width x height, then rotate. */
export interface ImagePlan {
  region: { x: number; y: number; w: number; h: number };
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  mirror: boolean;
  quality: IiifQuality;
  format: IiifFormat;
}

const INT = '(\\d+)';
const NUM = '(\\d+(?:\\.\\d+)?|\\.\\d+)';

export function parseImageRequest(region: string, size: string, rotation: string, qualityFormat: string): ParsedImageRequest {
  return {
    region: parseRegion(region),
    size: parseSize(size),
    rotation: parseRotation(rotation),
    ...parseQualityFormat(qualityFormat),
  };
}

function parseRegion(text: string): Region {
  if (text === 'full' || text === 'square') return { kind: text };
  const pixels = new RegExp(`^${INT},${INT},${INT},${INT}$`).exec(text);
  const percent = new RegExp(`^pct:${NUM},${NUM},${NUM},${NUM}$`).exec(text);
  const match = pixels ?? percent;
  if (!match) {
    throw badRequest(`The region "${text}" is not valid: use full, square, x,y,w,h or pct:x,y,w,h.`);
  }
  const [x, y, w, h] = match.slice(1).map(Number) as [number, number, number, number];
  if (w <= 0 || h <= 0) throw badRequest(`The region "${text}" is not valid: its width and height must be greater than 0.`);
  return { kind: pixels ? 'pixels' : 'percent', x, y, w, h };
}

function parseSize(text: string): Size {
  const upscale = text.startsWith('^');
  const body = upscale ? text.slice(1) : text;
  const bad = () => badRequest(`The size "${text}" is not valid: use max, w,, ,h, pct:n, w,h or !w,h (each may start with ^).`);
  if (body === 'max') return { upscale, kind: 'max' };
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^pct:${NUM}$`).exec(body))) {
    const n = Number(m[1]);
    if (n <= 0) throw badRequest(`The size "${text}" is not valid: the percentage must be greater than 0.`);
    return { upscale, kind: 'percent', n };
  }
  if ((m = new RegExp(`^${INT},$`).exec(body))) return positive({ upscale, kind: 'width', w: Number(m[1]) }, text);
  if ((m = new RegExp(`^,${INT}$`).exec(body))) return positive({ upscale, kind: 'height', h: Number(m[1]) }, text);
  if ((m = new RegExp(`^(!?)${INT},${INT}$`).exec(body))) {
    return positive({ upscale, kind: m[1] ? 'confined' : 'exact', w: Number(m[2]), h: Number(m[3]) }, text);
  }
  throw bad();
}

function positive<T extends Size>(size: T, text: string): T {
  const values = [(size as { w?: number }).w, (size as { h?: number }).h].filter((v) => v !== undefined);
  if (values.some((v) => v <= 0)) throw badRequest(`The size "${text}" is not valid: width and height must be greater than 0.`);
  return size;
}

function parseRotation(text: string): ParsedImageRequest['rotation'] {
  const m = new RegExp(`^(!?)${NUM}$`).exec(text);
  if (!m) throw badRequest(`The rotation "${text}" is not valid: use a number of degrees, optionally after ! to mirror.`);
  const degrees = Number(m[2]);
  if (degrees !== 0 && degrees !== 90 && degrees !== 180 && degrees !== 270) {
    throw badRequest('Only rotations by multiples of 90 degrees are supported.');
  }
  return { degrees, mirror: m[1] === '!' };
}

function parseQualityFormat(text: string): { quality: IiifQuality; format: IiifFormat } {
  const dot = text.lastIndexOf('.');
  if (dot <= 0) throw badRequest(`"${text}" is not valid: the last part must be {quality}.{format}, e.g. default.jpg.`);
  const quality = text.slice(0, dot);
  const format = text.slice(dot + 1);
  if (!(IIIF_QUALITIES as readonly string[]).includes(quality)) {
    throw badRequest(`The quality "${quality}" is not supported: use ${IIIF_QUALITIES.join(', ')}.`);
  }
  if (!(IIIF_FORMATS as readonly string[]).includes(format)) {
    throw badRequest(`The format "${format}" is not supported: use ${IIIF_FORMATS.join(', ')}.`);
  }
  return { quality: quality as IiifQuality, format: format as IiifFormat };
}

/** Resolves the request against an image of width x height; 400 when it asks for the impossible. */
export function planImageRequest(req: ParsedImageRequest, width: number, height: number): ImagePlan {
  const region = resolveRegion(req.region, width, height);
  const { w, h } = resolveSize(req.size, region.w, region.h);
  return { region, width: w, height: h, rotation: req.rotation.degrees, mirror: req.rotation.mirror, quality: req.quality, format: req.format };
}

function resolveRegion(region: Region, width: number, height: number): ImagePlan['region'] {
  if (region.kind === 'full') return { x: 0, y: 0, w: width, h: height };
  if (region.kind === 'square') {
    const side = Math.min(width, height);
    return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), w: side, h: side };
  }
  const r =
    region.kind === 'pixels'
      ? region
      : {
          x: Math.round((region.x * width) / 100),
          y: Math.round((region.y * height) / 100),
          w: Math.round((region.w * width) / 100),
          h: Math.round((region.h * height) / 100),
        };
  if (r.x >= width || r.y >= height || r.w <= 0 || r.h <= 0) {
    throw badRequest(`The region lies outside the image, which is ${width} x ${height} pixels.`);
  }
  // A region reaching past the edge is cropped to the image, as the spec asks.
  return { x: r.x, y: r.y, w: Math.min(r.w, width - r.x), h: Math.min(r.h, height - r.y) };
}

function resolveSize(size: Size, rw: number, rh: number): { w: number; h: number } {
  const { maxWidth, maxHeight, maxArea } = IIIF_LIMITS;
  const largest = Math.min(maxWidth / rw, maxHeight / rh, Math.sqrt(maxArea / (rw * rh)));
  let w: number;
  let h: number;
  switch (size.kind) {
    case 'max': {
      const scale = size.upscale ? largest : Math.min(1, largest);
      w = Math.floor(rw * scale);
      h = Math.floor(rh * scale);
      break;
    }
    case 'percent':
      w = Math.round((rw * size.n) / 100);
      h = Math.round((rh * size.n) / 100);
      break;
    case 'width':
      w = size.w;
      h = Math.round((rh * size.w) / rw);
      break;
    case 'height':
      h = size.h;
      w = Math.round((rw * size.h) / rh);
      break;
    case 'exact':
      w = size.w;
      h = size.h;
      break;
    case 'confined': {
      const scale = Math.min(size.w / rw, size.h / rh, size.upscale ? Number.POSITIVE_INFINITY : 1);
      w = Math.min(size.w, Math.round(rw * scale));
      h = Math.min(size.h, Math.round(rh * scale));
      break;
    }
  }
  w = Math.max(w, 0);
  h = Math.max(h, 0);
  if (w === 0 || h === 0) throw badRequest('The requested size is too small: it would give an image with no pixels.');
  if (!size.upscale && (w > rw || h > rh)) {
    throw badRequest(`The requested size ${w} x ${h} is larger than the region (${rw} x ${rh}); add ^ to the size to allow upscaling.`);
  }
  if (w > maxWidth || h > maxHeight || w * h > maxArea) {
    throw badRequest(`The requested size ${w} x ${h} is larger than this server allows (at most ${maxWidth} x ${maxHeight} and ${maxArea} pixels).`);
  }
  return { w, h };
}

/** A stable text of the resolved request: the cache key and ETag are derived from it. */
export function canonicalPlan(plan: ImagePlan): string {
  const { x, y, w, h } = plan.region;
  return `${x},${y},${w},${h}/${plan.width},${plan.height}/${plan.mirror ? '!' : ''}${plan.rotation}/${plan.quality}.${plan.format}`;
}

/** The thumbnail of an image: the whole image fitted into the thumbnail box, as JPEG. */
export function thumbnailPlan(image: { width: number; height: number }): ImagePlan {
  const size = `!${THUMBNAIL_BOX.width},${THUMBNAIL_BOX.height}`;
  return planImageRequest(parseImageRequest('full', size, '0', 'default.jpg'), image.width, image.height);
}
