import type { LayoutPoints, TranscriptionLayout } from '@pim/contract';

type Node = Record<string, unknown>;
interface Scale {
  x: number;
  y: number;
}

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const arrayOf = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isObject) : []);
const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A stored layout (`{ page, regions: [{ lines }] }`, uploads' shape) as the API gives it: every
 * point in the pixels of the image as it is shown. Layouts are JSON from several importers (and
 * later ones add words, glyphs and more), so only what is drawn is read, and defensively. Lines are
 * numbered in layout order, regions first, as the text lines of a transcription are.
 */
export function presentLayout(transcriptionId: string, layout: unknown, image: { width: number; height: number }): TranscriptionLayout {
  const stored = isObject(layout) ? layout : {};
  const scale = pageScale(stored.page, image);
  let index = 0;
  const regions = arrayOf(stored.regions).map((region) => ({
    id: stringOrNull(region.id),
    type: stringOrNull(region.type),
    coords: points(region.coords, scale),
    lines: arrayOf(region.lines).map((line) => ({
      index: index++,
      id: stringOrNull(line.id),
      text: stringOrNull(line.text) ?? '',
      coords: points(line.coords, scale),
      baseline: points(line.baseline, scale),
    })),
  }));
  return { transcriptionId, width: image.width, height: image.height, regions };
}

/**
 * Image pixels per layout unit on each axis. The points are in the page size the file gave (PAGE's
 * imageWidth/imageHeight, ALTO's Page in pixels, hOCR's page box; ALTO in mm10 or inch1200 was
 * converted to the image's size on import). A file made on a copy of another size is scaled to
 * the image; a file that gives no size is taken to measure the image itself.
 */
function pageScale(page: unknown, image: { width: number; height: number }): Scale {
  const size = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);
  const width = isObject(page) ? size(page.imageWidth) : null;
  const height = isObject(page) ? size(page.imageHeight) : null;
  return { x: width ? image.width / width : 1, y: height ? image.height / height : 1 };
}

const POINT = /(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/g;

/** A PAGE points string ("x,y x,y ..."), scaled; null when it holds no point. */
function points(value: unknown, scale: Scale): LayoutPoints | null {
  if (typeof value !== 'string') return null;
  const round = (v: number) => Math.round(v * 100) / 100;
  const found = [...value.matchAll(POINT)].map(([, x, y]): [number, number] => [round(Number(x) * scale.x), round(Number(y) * scale.y)]);
  return found.length > 0 ? found : null;
}
