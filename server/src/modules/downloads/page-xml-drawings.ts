import type { DrawingLabel, DrawingPoint, DrawingShape } from '@pim/contract';

/** Gives an id unique in the PAGE document: `wanted` when it is free and a valid NCName. */
export type UniqueId = (wanted: string | null, fallback: string) => string;

/**
 * The PAGE elements of the shapes drawn on an image (drawings/), to follow the transcription's
 * regions inside Page. The label class decides the element:
 * - region, marginalia, page-number: a TextRegion of @type paragraph, marginalia, page-number;
 * - decoration: a GraphicRegion of @type decoration;
 * - text-line polygon: a TextLine with that outline;
 * - baseline, and a text-line drawn as a line: a Baseline. It belongs to the first drawn text-line
 *   outline that holds its middle and has no baseline yet; otherwise it is a TextLine of its own,
 *   outlined by a band above it as high as the drawn text lines are (PAGE requires Coords).
 * Each TextLine goes into the smallest drawn TextRegion that holds its middle (a marginal note
 * drawn inside a larger region is the note's), else into one TextRegion made for the drawn lines,
 * around them. A region's outline is its points, whether it was drawn as a polygon or a line.
 */
export function drawnPageElements(shapes: DrawingShape[], uniqueId: UniqueId, imageHeight: number): string[] {
  const regions = shapes.filter((s) => REGION_TYPES[s.label] !== undefined);
  const lines = drawnLines(shapes, imageHeight);
  const linesOf = new Map<DrawingShape, DrawnLine[]>(regions.map((r) => [r, []]));
  const loose: DrawnLine[] = [];
  for (const line of lines) {
    const holder = smallest(regions.filter((r) => r.label !== 'decoration' && inside(middle(line.coords), r.points)));
    (holder ? linesOf.get(holder)! : loose).push(line);
  }
  const out = regions.flatMap((region) => {
    const id = uniqueId(`drawn-${region.id}`, 'drawn_region');
    const coords = `      <Coords points="${pointsText(region.points)}"/>`;
    if (region.label === 'decoration') return [`    <GraphicRegion id="${id}" type="decoration">`, coords, '    </GraphicRegion>'];
    const body = linesOf.get(region)!.flatMap((line) => textLineXml(line, uniqueId));
    return [`    <TextRegion id="${id}" type="${REGION_TYPES[region.label]}">`, coords, ...body, '    </TextRegion>'];
  });
  if (loose.length > 0) {
    const around = boundingBox(loose.flatMap((l) => l.coords));
    out.push(
      `    <TextRegion id="${uniqueId('drawn-lines', 'drawn_lines')}">`,
      `      <Coords points="${pointsText(around)}"/>`,
      ...loose.flatMap((line) => textLineXml(line, uniqueId)),
      '    </TextRegion>',
    );
  }
  return out;
}

const REGION_TYPES: Partial<Record<DrawingLabel, string>> = {
  region: 'paragraph',
  marginalia: 'marginalia',
  'page-number': 'page-number',
  decoration: 'decoration',
};

interface DrawnLine {
  id: string;
  coords: DrawingPoint[];
  baseline: DrawingPoint[] | null;
}

/** Text-line outlines with the baselines drawn in them, then the baselines drawn on their own. */
function drawnLines(shapes: DrawingShape[], imageHeight: number): DrawnLine[] {
  const outlines: DrawnLine[] = shapes
    .filter((s) => s.label === 'text-line' && s.kind === 'polygon')
    .map((s) => ({ id: s.id, coords: s.points, baseline: null }));
  const alone: DrawingShape[] = [];
  for (const s of shapes.filter((s) => s.label === 'baseline' || (s.label === 'text-line' && s.kind === 'line'))) {
    const owner = outlines.find((l) => l.baseline === null && inside(middle(s.points), l.coords));
    if (owner) owner.baseline = s.points;
    else alone.push(s);
  }
  const height = bandHeight(outlines, imageHeight);
  return [...outlines, ...alone.map((s) => ({ id: s.id, coords: bandAbove(s.points, height), baseline: s.points }))];
}

function textLineXml(line: DrawnLine, uniqueId: UniqueId): string[] {
  return [
    `      <TextLine id="${uniqueId(`drawn-${line.id}`, 'drawn_line')}">`,
    `        <Coords points="${pointsText(line.coords)}"/>`,
    ...(line.baseline ? [`        <Baseline points="${pointsText(line.baseline)}"/>`] : []),
    '      </TextLine>',
  ];
}

/** How high text on this page is: the median height of the drawn line outlines, else 2% of the page. */
function bandHeight(outlines: DrawnLine[], imageHeight: number): number {
  const heights = outlines
    .map((l) => boundingBox(l.coords))
    .map(([[, top], , [, bottom]]) => bottom - top)
    .sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)];
  return Math.max(1, median ?? Math.round(imageHeight * 0.02));
}

/** The outline from the baseline up by `height`: along the baseline, back along its raised copy. */
function bandAbove(baseline: DrawingPoint[], height: number): DrawingPoint[] {
  const raised = baseline.map(([x, y]): DrawingPoint => [x, Math.max(0, y - height)]).reverse();
  return [...baseline, ...raised];
}

function middle(points: DrawingPoint[]): [number, number] {
  const [[x0, y0], , [x1, y1]] = boundingBox(points);
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/** The corners of the points' bounding box, clockwise from the top left. */
function boundingBox(points: DrawingPoint[]): [DrawingPoint, DrawingPoint, DrawingPoint, DrawingPoint] {
  // A loop, not Math.min(...xs): a drawing's lines together may hold more points than a call takes arguments.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
}

/** The region with the smallest bounding box, if any. */
function smallest(regions: DrawingShape[]): DrawingShape | undefined {
  const area = (r: DrawingShape) => {
    const [[x0, y0], , [x1, y1]] = boundingBox(r.points);
    return (x1 - x0) * (y1 - y0);
  };
  return regions.reduce<DrawingShape | undefined>((best, r) => (best === undefined || area(r) < area(best) ? r : best), undefined);
}

/** Even-odd ray casting: whether the point lies within the closed outline. */
function inside([x, y]: [number, number], outline: DrawingPoint[]): boolean {
  let within = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i]!;
    const [xj, yj] = outline[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
  }
  return within;
}

function pointsText(points: DrawingPoint[]): string {
  return points.map(([x, y]) => `${x},${y}`).join(' ');
}
