/** A text line as it is made from a transcription's layout, before it has an id. */
export interface LayoutTextLine {
  lineIndex: number;
  text: string;
  /** The mean of the line's word confidences, 0..1; null when no word has one. */
  confidence: number | null;
  /** The lowest word confidence on the line, 0..1. */
  lowestConf: number | null;
  region: { x: number; y: number; w: number; h: number } | null;
}

type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const arrayOf = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * The lines of a stored layout (`{ page, regions: [{ lines: [...] }] }`, uploads' shape) in
 * reading order: regions in layout order, then their lines. Read as defensively as the PAGE
 * export reads it, so a line's index is the same in both. hOCR gives word confidences as 0..100
 * (x_wconf), ALTO as 0..1 (WC); both are stored as given and scaled here.
 */
export function linesFromLayout(layout: unknown, format: string, image: { width: number; height: number }): LayoutTextLine[] {
  const scale = format === 'hocr' ? 100 : 1;
  const regions = arrayOf(isObject(layout) ? layout.regions : undefined);
  return regions
    .flatMap((region) => arrayOf(region.lines))
    .map((line, lineIndex) => {
      const confidences = arrayOf(line.words)
        .map((w) => (typeof w.confidence === 'number' ? w.confidence / scale : NaN))
        .filter((c) => c >= 0 && c <= 1);
      return {
        lineIndex,
        text: typeof line.text === 'string' ? line.text : '',
        confidence: confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : null,
        lowestConf: confidences.length ? confidences.reduce((a, b) => Math.min(a, b)) : null,
        region: typeof line.coords === 'string' ? boundingBox(line.coords, image) : null,
      };
    });
}

/**
 * The bounding box of a PAGE points string ("x,y x,y ..."), clamped to the image. Points are
 * pixel positions, so a box from 10 to 20 is 11 pixels wide. Null when there are no points or
 * the outline lies wholly outside the image.
 */
export function boundingBox(points: string, image: { width: number; height: number }): LayoutTextLine['region'] {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [, x, y] of points.matchAll(/(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/g)) {
    minX = Math.min(minX, Number(x));
    maxX = Math.max(maxX, Number(x));
    minY = Math.min(minY, Number(y));
    maxY = Math.max(maxY, Number(y));
  }
  if (minX === Infinity) return null;
  const left = Math.max(0, Math.floor(minX));
  const top = Math.max(0, Math.floor(minY));
  const right = Math.min(image.width - 1, Math.ceil(maxX));
  const bottom = Math.min(image.height - 1, Math.ceil(maxY));
  if (right < left || bottom < top) return null;
  return { x: left, y: top, w: right - left + 1, h: bottom - top + 1 };
}
