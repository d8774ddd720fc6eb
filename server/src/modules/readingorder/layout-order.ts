import { isDeepStrictEqual } from 'node:util';
import type { ReadingOrderGroup } from '../uploads/page-reading-order.js';
import { type Box, type ColumnDirection, boxOf, inReadingOrder, pointsOf, unionOf } from './geometry.js';

type Node = Record<string, unknown>;

// As `linesFromLayout` reads a layout, so a line's index here is its text line's index.
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const arrayOf = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** A stored layout put in reading order, and how its text lines move. */
export interface ReorderedLayout {
  layout: Node;
  /** The lines' texts in the new order, one a line: the transcription's clean text. */
  cleanText: string;
  /** Every line whose index changes: `from` its index before, `to` its index now. */
  lineMoves: { from: number; to: number }[];
  /** False when the layout was in this order already (and its PAGE ReadingOrder said so). */
  changed: boolean;
}

/**
 * Puts a stored layout (uploads' shape: `{ page, regions: [{ coords, lines: [...] }] }`) in reading
 * order from its geometry: regions by `inReadingOrder` (columns, then bands), and each region's
 * lines the same way within it (top to bottom, column by column). A PAGE layout gets a ReadingOrder that says the same: one ordered group
 * of its regions. Lines are numbered as `linesFromLayout` numbers them (regions in order, then
 * their lines), so `lineMoves` says where each text line goes. Regions without any outline keep
 * their order after the others; so do the lines of a region where a line has none.
 */
export function reorderLayout(stored: unknown, format: string): ReorderedLayout {
  const layout = isObject(stored) ? stored : {};
  const regions = arrayOf(layout.regions);
  const before = regions.flatMap((r) => arrayOf(r.lines));
  const direction = columnDirection(layout, regions);
  const placed = regions.flatMap((region) => {
    const box = regionBox(region);
    return box ? [{ item: region, box }] : [];
  });
  const boxes = new Map(placed.map((p) => [p.item, p.box]));
  const unplaced = regions.filter((r) => !boxes.has(r));
  const regionsInOrder = withDropCapitals([...inReadingOrder(placed, { direction }), ...unplaced], boxes, direction);
  const ordered = regionsInOrder.map((region) => ({ ...region, lines: linesInOrder(region, direction) }));
  const after = ordered.flatMap((r) => r.lines);
  const indexBefore = new Map(before.map((line, i) => [line, i]));
  const lineMoves = after.flatMap((line, to) => {
    const from = indexBefore.get(line)!;
    return from === to ? [] : [{ from, to }];
  });
  const result: Node = { ...layout, regions: ordered };
  if (format === 'page') result.readingOrder = readingOrderOf(ordered, layout.readingOrder);
  // Lines that keep their index in regions that keep their place: nothing moved.
  const moved = lineMoves.length > 0 || regionsInOrder.some((r, i) => r !== regions[i]);
  return {
    layout: result,
    cleanText: after.map((l) => (typeof l.text === 'string' ? l.text : '')).join('\n'),
    lineMoves,
    changed: moved || !isDeepStrictEqual(result.readingOrder, layout.readingOrder),
  };
}

/** Right to left when the PAGE file says so for the page, or else for most of its regions. */
function columnDirection(layout: Node, regions: Node[]): ColumnDirection {
  const page = isObject(layout.page) ? layout.page.readingDirection : undefined;
  if (typeof page === 'string') return page === 'right-to-left' ? 'rtl' : 'ltr';
  const declared = regions.map((r) => r.readingDirection).filter((d): d is string => typeof d === 'string');
  const rtl = declared.filter((d) => d === 'right-to-left').length;
  return rtl > declared.length - rtl ? 'rtl' : 'ltr';
}

/** The region's outline, else the box around its lines' outlines and baselines. */
function regionBox(region: Node): Box | null {
  return boxOf(pointsOf(region.coords)) ?? unionOf(arrayOf(region.lines).flatMap((l) => lineBoxes(l)));
}

function lineBoxes(line: Node): Box[] {
  return [boxOf(pointsOf(line.coords)), boxOf(pointsOf(line.baseline))].filter((b): b is Box => b !== null);
}

/**
 * The region's lines in reading order, by the same cuts as regions (a charter written in two
 * columns in one region is read column by column); lines that no cut separates are read by
 * their baseline's height (its mean y), else their outline's centre. Unchanged when a line has
 * no geometry at all.
 */
function linesInOrder(region: Node, direction: ColumnDirection): Node[] {
  const lines = arrayOf(region.lines);
  const placed = lines.map((line) => {
    const baseline = pointsOf(line.baseline);
    const box = unionOf(lineBoxes(line));
    const level = baseline.length > 0 ? baseline.reduce((sum, [, y]) => sum + y, 0) / baseline.length : box && (box.top + box.bottom) / 2;
    return { item: line, box, level };
  });
  if (placed.some((p) => p.box === null)) return lines;
  return inReadingOrder(placed as { item: Node; box: Box; level: number }[], { direction, perColumn: 2 });
}

/**
 * Each drop capital moved to just before the paragraph it begins: its box lies inside that
 * paragraph's, where the cuts cannot tell which comes first. A drop capital is a PAGE region of
 * that type overlapping another region (it goes before the one it overlaps most), or any small
 * region lying inside a larger one at its start: level with its top, at its left edge (right,
 * for right-to-left pages), as ALTO's text blocks give an initial.
 */
function withDropCapitals(regions: Node[], boxes: Map<Node, Box>, direction: ColumnDirection): Node[] {
  let result = regions;
  for (const drop of regions) {
    const box = boxes.get(drop);
    if (!box) continue;
    let host: Node | undefined;
    let most = 0;
    for (const other of result) {
      const otherBox = boxes.get(other);
      if (other === drop || !otherBox) continue;
      const area = overlapArea(box, otherBox);
      const typed = drop.type === 'drop-capital' && other.type !== 'drop-capital';
      if (area > most && (typed || startsInside(box, otherBox, area, direction))) [host, most] = [other, area];
    }
    if (!host) continue;
    result = result.filter((r) => r !== drop);
    result.splice(result.indexOf(host), 0, drop);
  }
  return result;
}

/** Whether `inner` (overlapping `outer` by `area`) lies inside it at its start: level with its top, at its leading edge. */
function startsInside(inner: Box, outer: Box, area: number, direction: ColumnDirection): boolean {
  const width = inner.right - inner.left;
  const height = inner.bottom - inner.top;
  const lead = direction === 'rtl' ? outer.right - inner.right : inner.left - outer.left;
  return area >= 0.9 * width * height && area < (outer.right - outer.left) * (outer.bottom - outer.top) && Math.abs(inner.top - outer.top) <= height && lead <= width;
}

function overlapArea(a: Box, b: Box): number {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * PAGE's ReadingOrder for the regions in their new order: one ordered group of the regions with
 * an id (a reference needs one), keeping the id and caption of the group the file had.
 */
function readingOrderOf(regions: Node[], previous: unknown): ReadingOrderGroup | null {
  const ids = regions.map((r) => r.id).filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length === 0) return null;
  const old = isObject(previous) ? previous : {};
  return {
    kind: 'ordered',
    id: typeof old.id === 'string' ? old.id : null,
    caption: typeof old.caption === 'string' ? old.caption : null,
    type: null,
    regionRef: null,
    index: null,
    members: ids.map((regionRef, index) => ({ kind: 'region', regionRef, index })),
  };
}
