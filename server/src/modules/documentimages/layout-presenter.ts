import type { LayoutPoints, TranscriptionLayout, TranscriptionLayoutRegion } from '@pim/contract';
import { storedReadingOrder, type ReadingOrderGroup } from '../uploads/page-reading-order.js';

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
 * numbered in layout order, regions first, as the text lines of a transcription are; `readingOrder`
 * lists them as the PAGE ReadingOrder reads them.
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
  const readingOrder = linesInReadingOrder(regions, storedReadingOrder(stored.readingOrder));
  return { transcriptionId, width: image.width, height: image.height, regions, readingOrder };
}

/**
 * The lines' indexes in reading order: the regions in the order the ReadingOrder names them (a
 * group's own region before its members; an unordered group's members as written), each with its
 * lines in their order. A region it does not name (a region nested in another, one added later)
 * follows the region before it in the layout. Without a ReadingOrder (ALTO, hOCR, older imports),
 * the layout order.
 */
function linesInReadingOrder(regions: TranscriptionLayoutRegion[], order: ReadingOrderGroup | null): number[] {
  const position = new Map<string, number>();
  regions.forEach((region, at) => {
    if (region.id !== null && !position.has(region.id)) position.set(region.id, at);
  });
  const named: number[] = [];
  const isNamed = new Set<number>();
  const name = (id: string | null) => {
    const at = id === null ? undefined : position.get(id);
    if (at === undefined || isNamed.has(at)) return;
    isNamed.add(at);
    named.push(at);
  };
  const visit = (group: ReadingOrderGroup) => {
    name(group.regionRef);
    for (const member of group.members) {
      if (member.kind === 'region') name(member.regionRef);
      else visit(member);
    }
  };
  if (order) visit(order);
  // Each region the order leaves out goes with the nearest named region before it (or first, before any).
  const following = new Map<number, number[]>();
  let lead = -1;
  regions.forEach((_, at) => {
    if (isNamed.has(at)) lead = at;
    else following.set(lead, [...(following.get(lead) ?? []), at]);
  });
  const ordered = [...(following.get(-1) ?? []), ...named.flatMap((at) => [at, ...(following.get(at) ?? [])])];
  return ordered.flatMap((at) => regions[at]!.lines.map((line) => line.index));
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
