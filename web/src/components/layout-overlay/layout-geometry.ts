import type { LayoutPoints, TranscriptionLayout, TranscriptionLayoutLine } from '@pim/contract';
import type { ImageRect } from '../image-viewer/image-viewer';

type Point = [number, number];

/** Points as SVG's points attribute. */
export function pointsAttr(points: readonly (readonly [number, number])[]): string {
  return points.map(([x, y]) => `${x},${y}`).join(' ');
}

export function linesOf(layout: TranscriptionLayout): TranscriptionLayoutLine[] {
  return layout.regions.flatMap((region) => region.lines);
}

/** Whether the point lies inside the polygon (even-odd rule, as SVG fills it). */
export function insidePolygon([x, y]: Point, polygon: LayoutPoints): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The distance from the point to the nearest segment of the polyline. */
export function distanceToPolyline([x, y]: Point, line: LayoutPoints): number {
  if (line.length === 1) return Math.hypot(x - line[0]![0], y - line[0]![1]);
  let nearest = Infinity;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1]!;
    const [bx, by] = line[i]!;
    const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2));
    nearest = Math.min(nearest, Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
  }
  return nearest;
}

function boxOf(points: LayoutPoints): ImageRect {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

function area(polygon: LayoutPoints): number {
  const { w, h } = boxOf(polygon);
  return w * h;
}

/** Lines per page that a baseline's band is measured by: a baseline has no height of its own. */
const LINES_PER_PAGE = 40;

/**
 * The part of the image a line takes: the box of its outline, else the band above its baseline
 * as high as a line of a page of 40 lines; null when it has neither.
 */
export function lineBox(line: TranscriptionLayoutLine, imageHeight: number): ImageRect | null {
  if (line.coords && line.coords.length > 0) return boxOf(line.coords);
  if (!line.baseline || line.baseline.length === 0) return null;
  const base = boxOf(line.baseline);
  const height = imageHeight / LINES_PER_PAGE;
  return { x: base.x, y: base.y - height, w: base.w, h: base.h + height };
}

/**
 * The line at a point of the image: the smallest outline holding it, else the nearest baseline
 * within `tolerance` pixels (lines without an outline are drawn by their baseline alone).
 */
export function lineAt(layout: TranscriptionLayout, point: Point, tolerance: number): TranscriptionLayoutLine | null {
  const lines = linesOf(layout);
  const holding = lines.filter((line) => line.coords && line.coords.length > 2 && insidePolygon(point, line.coords));
  if (holding.length > 0) return holding.reduce((a, b) => (area(b.coords!) < area(a.coords!) ? b : a));
  let best: TranscriptionLayoutLine | null = null;
  let bestDistance = tolerance;
  for (const line of lines) {
    const distance = line.baseline ? distanceToPolyline(point, line.baseline) : Infinity;
    if (distance <= bestDistance) [best, bestDistance] = [line, distance];
  }
  return best;
}
