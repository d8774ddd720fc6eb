/** An axis-aligned box in layout pixels (y grows downwards). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Which way the columns of a page are read: left to right, or right to left (Hebrew, Arabic). */
export type ColumnDirection = 'ltr' | 'rtl';

/**
 * A box joins the column (or band) before it when it overlaps it by more than this share of the
 * column's extent, or lies at least half inside it: neighbouring columns' outlines touch or overlap
 * by a few pixels, and a short line starting where the column before it ends is the next column's.
 */
const OVERLAP_SHARE = 0.1;

const POINT = /(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/g;

/** The points of a PAGE points string ("x,y x,y ..."); none for anything else. */
export function pointsOf(value: unknown): [number, number][] {
  if (typeof value !== 'string') return [];
  return [...value.matchAll(POINT)].map(([, x, y]): [number, number] => [Number(x), Number(y)]);
}

/** The box around the points, or null when there are none. */
export function boxOf(points: [number, number][]): Box | null {
  if (points.length === 0) return null;
  const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const [x, y] of points) {
    box.left = Math.min(box.left, x);
    box.right = Math.max(box.right, x);
    box.top = Math.min(box.top, y);
    box.bottom = Math.max(box.bottom, y);
  }
  return box;
}

/** The box around several boxes, or null when there are none. */
export function unionOf(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((a, b) => ({
    left: Math.min(a.left, b.left),
    top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
  }));
}

/** What is put in order: an item, its box, and the height it is read at when no cut separates it. */
export interface PlacedItem<T> {
  item: T;
  box: Box;
  /** Defaults to the box's top; a line's is its baseline. */
  level?: number;
}

interface Placed<T> extends PlacedItem<T> {
  /** Its place in the input: ties keep the order they came in, so a second run changes nothing. */
  at: number;
}

/**
 * Items in reading order by where their boxes lie (a recursive X-Y cut): first into columns,
 * groups of boxes that overlap horizontally, read left to right (or right to left); a column that
 * cannot be split so is cut into bands that overlap vertically, top to bottom, and each part is
 * ordered the same way. So a heading across two columns is read before both, a footnote across
 * them after both, and a two-column page column by column. Boxes that overlap both ways (no cut
 * separates them) are read by their level, top to bottom.
 */
export function inReadingOrder<T>(items: PlacedItem<T>[], options: OrderOptions): T[] {
  return order(
    items.map((p, at) => ({ ...p, at })),
    options,
  ).map((p) => p.item);
}

export interface OrderOptions {
  direction: ColumnDirection;
  /**
   * The fewest items a column may hold. Lines ask for two: a lone word beside a region's first
   * line (a title in the margin) is read with that line, not after the whole column.
   */
  perColumn?: number;
}

function order<T>(items: Placed<T>[], options: OrderOptions): Placed<T>[] {
  if (items.length <= 1) return items;
  const { direction, perColumn = 1 } = options;
  const columns = groupsAlong(items, 'left', 'right');
  if (columns.length > 1 && columns.every((c) => c.length >= perColumn)) {
    if (direction === 'rtl') columns.reverse();
    return columns.flatMap((column) => order(column, options));
  }
  const bands = groupsAlong(items, 'top', 'bottom');
  if (bands.length > 1) return bands.flatMap((band) => order(band, options));
  const across = (p: Placed<T>) => (direction === 'rtl' ? -p.box.right : p.box.left);
  const level = (p: Placed<T>) => p.level ?? p.box.top;
  return [...items].sort((a, b) => level(a) - level(b) || across(a) - across(b) || a.at - b.at);
}

/**
 * The items in groups along one axis, in ascending order: sorted by where they start, an item joins
 * the group before it when they overlap by more than OVERLAP_SHARE of the group's extent, or by at
 * least half of the item.
 */
function groupsAlong<T>(items: Placed<T>[], start: 'left' | 'top', end: 'right' | 'bottom'): Placed<T>[][] {
  const sorted = [...items].sort((a, b) => a.box[start] - b.box[start] || a.box[end] - b.box[end] || a.at - b.at);
  const groups: { from: number; to: number; members: Placed<T>[] }[] = [];
  for (const p of sorted) {
    const from = p.box[start];
    const to = p.box[end];
    const last = groups[groups.length - 1];
    const overlap = last ? Math.min(last.to, to) - from : 0;
    if (last && overlap > 0 && (overlap > OVERLAP_SHARE * (last.to - last.from) || overlap >= (to - from) / 2)) {
      last.members.push(p);
      last.to = Math.max(last.to, to);
    } else {
      groups.push({ from, to, members: [p] });
    }
  }
  return groups.map((g) => g.members);
}
