import type { LayoutWord } from '../modules/uploads/alto-xml.js';
import type { PageLine, PageRegion, ReadingOrderGroup } from '../modules/uploads/page-xml.js';
import type { XmlTranscription } from '../modules/uploads/xml-transcription.js';
import { CROP_MARGIN, type CropBox, type PreparedPage } from '../platform/tesseract/page-image.js';
import type { TsvWord } from '../platform/tesseract/recognise.js';

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayOf = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isObject) : []);
const size = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/** Tesseract cannot read a line image smaller than this on a side (it refuses to scale it). */
const SMALLEST_LINE = 3;

/** A line of the layout to read again: where it is in the layout, and its box on the prepared page. */
export interface LineToRead {
  region: number;
  line: number;
  box: CropBox;
}

/**
 * Prepared-page pixels per layout unit. A stored layout's points are in the page size its file
 * gave (PAGE's imageWidth/imageHeight), which may be another copy's than the image's: as the
 * layout is drawn, so it is read (see documentimages' layout-presenter.ts).
 */
function layoutScale(layout: Node, image: { width: number; height: number }, page: PreparedPage) {
  const stated = isObject(layout.page) ? layout.page : {};
  const width = size(stated.imageWidth);
  const height = size(stated.imageHeight);
  return { x: (width ? image.width / width : 1) / page.scaleX, y: (height ? image.height / height : 1) / page.scaleY };
}

const POINT = /(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/g;

/**
 * The lines of a stored PAGE layout that have an outline, each with the bounding box of its
 * outline on the prepared page (clamped to it). Lines without one, or too small to read, are left
 * out: they keep their text.
 */
export function linesToRead(layout: unknown, image: { width: number; height: number }, page: PreparedPage): LineToRead[] {
  if (!isObject(layout)) return [];
  const scale = layoutScale(layout, image, page);
  return arrayOf(layout.regions).flatMap((region, r) =>
    arrayOf(region.lines).flatMap((line, l) => {
      const points = typeof line.coords === 'string' ? [...line.coords.matchAll(POINT)].map(([, x, y]) => [Number(x), Number(y)] as const) : [];
      if (points.length === 0) return [];
      const left = Math.max(0, Math.floor(Math.min(...points.map(([x]) => x)) * scale.x));
      const top = Math.max(0, Math.floor(Math.min(...points.map(([, y]) => y)) * scale.y));
      const right = Math.min(page.width - 1, Math.ceil(Math.max(...points.map(([x]) => x)) * scale.x));
      const bottom = Math.min(page.height - 1, Math.ceil(Math.max(...points.map(([, y]) => y)) * scale.y));
      const box = { left, top, width: right - left + 1, height: bottom - top + 1 };
      return box.width < SMALLEST_LINE || box.height < SMALLEST_LINE ? [] : [{ region: r, line: l, box }];
    }),
  );
}

/**
 * The layout with the texts Tesseract read for its lines: each line read gets Tesseract's words
 * (their outlines in the layout's units, their confidence 0..1 as PAGE gives it) and their text;
 * every id, outline, baseline, region and the reading order stay. The own text of a region with
 * lines read, made from the old lines, is dropped; lines not read keep theirs.
 */
export function relayout(
  layout: unknown,
  image: { width: number; height: number },
  page: PreparedPage,
  read: { line: LineToRead; words: TsvWord[] }[],
): Pick<XmlTranscription, 'page' | 'regions' | 'readingOrder'> {
  const stored = isObject(layout) ? layout : {};
  const scale = layoutScale(stored, image, page);
  const byLine = new Map(read.map((r) => [`${r.line.region}/${r.line.line}`, r]));
  const regions = arrayOf(stored.regions).map((region, r) => ({
    ...(region as unknown as PageRegion),
    text: read.some((x) => x.line.region === r) ? null : ((region.text ?? null) as string | null),
    lines: arrayOf(region.lines).map((line, l) => {
      const found = byLine.get(`${r}/${l}`);
      if (!found) return line as unknown as PageLine;
      const words = found.words.map((w, i) => wordOf(w, found.line.box, scale, typeof line.id === 'string' ? `${line.id}_w${i + 1}` : null));
      return { ...(line as unknown as PageLine), text: words.map((w) => w.text).join(' '), words };
    }),
  }));
  const pageOf = isObject(stored.page) ? stored.page : {};
  return {
    page: {
      imageFilename: typeof pageOf.imageFilename === 'string' ? pageOf.imageFilename : null,
      imageWidth: size(pageOf.imageWidth),
      imageHeight: size(pageOf.imageHeight),
    },
    regions,
    readingOrder: (stored.readingOrder ?? null) as ReadingOrderGroup | null,
  };
}

/** A word Tesseract found in a line's crop, placed on the page in the layout's units. */
function wordOf(w: TsvWord, box: CropBox, scale: { x: number; y: number }, id: string | null): LayoutWord {
  const x0 = Math.max(0, Math.round((box.left + w.left - CROP_MARGIN) / scale.x));
  const y0 = Math.max(0, Math.round((box.top + w.top - CROP_MARGIN) / scale.y));
  const x1 = Math.round((box.left + w.left + w.width - 1 - CROP_MARGIN) / scale.x);
  const y1 = Math.round((box.top + w.top + w.height - 1 - CROP_MARGIN) / scale.y);
  return {
    id,
    coords: `${x0},${y0} ${x1},${y0} ${x1},${y1} ${x0},${y1}`,
    text: w.text,
    confidence: w.confidence === null ? null : Math.round(w.confidence * 100) / 10_000,
  };
}
