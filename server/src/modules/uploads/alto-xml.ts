import { badRequest, unsupportedMediaType } from '../../platform/errors.js';
import { decodeXmlText, type PageLine, type PageRegion } from './page-xml.js';
import { safeXmlParser } from './safe-xml.js';

/** A word of an ALTO or hOCR line, kept in the layout with its confidence (0..1 or 0..100 as given). */
export interface LayoutWord {
  id: string | null;
  coords: string | null;
  text: string;
  confidence: number | null;
}

/** PAGE's layout shape, with the words an ALTO or hOCR line is made of. */
export type LayoutRegion = Omit<PageRegion, 'lines'> & { lines: (PageLine & { words: LayoutWord[] })[] };

export const NOT_ALTO = 'This ALTO file has no ALTO v2, v3 or v4 namespace: only those versions can be imported.';
const UNITS = new Set(['pixel', 'mm10', 'inch1200']);

/** A rectangle or polygon in the file's own measurement unit, converted once the image is known. */
type Shape = { kind: 'box'; x: number; y: number; w: number; h: number } | { kind: 'polygon'; points: number[][] };

interface AltoWord {
  id: string | null;
  shape: Shape | null;
  text: string;
  /** WC, 0..1, when the file gives it. */
  confidence: number | null;
}

interface AltoLine {
  id: string | null;
  shape: Shape | null;
  /** A v2/v3 BASELINE is one y value across the line; v4.2+ may give points. */
  baseline: number | number[][] | null;
  text: string;
  words: AltoWord[];
}

interface AltoRegion {
  id: string | null;
  shape: Shape | null;
  lines: AltoLine[];
}

export interface AltoDocument {
  /** '2', '3' or '4', from the namespace. */
  version: string;
  software: string | null;
  /** Description/sourceImageInformation/fileName, when given. */
  fileName: string | null;
  unit: 'pixel' | 'mm10' | 'inch1200';
  pageWidth: number | null;
  pageHeight: number | null;
  regions: AltoRegion[];
}

/** A node of fast-xml-parser's ordered output: one element (name → children) or a text node. */
type XNode = Record<string, unknown>;

const nameOf = (node: XNode) => Object.keys(node).find((k) => k !== ':@') ?? '';
const childrenOf = (node: XNode): XNode[] => (Array.isArray(node[nameOf(node)]) ? (node[nameOf(node)] as XNode[]) : []);
const elements = (nodes: XNode[], name: string) => nodes.filter((n) => nameOf(n) === name);
const first = (nodes: XNode[], name: string) => nodes.find((n) => nameOf(n) === name);

function attr(node: XNode, name: string): string | null {
  const value = (node[':@'] as Record<string, unknown> | undefined)?.[`@${name}`];
  return typeof value === 'string' ? decodeXmlText(value) : null;
}

function num(node: XNode, name: string): number | null {
  return altoNumber(attr(node, name));
}

/** An ALTO number attribute (a float, as its schema says); null when it is not one. */
export function altoNumber(text: string | null): number | null {
  const value = text?.trim();
  // `\d+(?:\.\d*)?`, not `\d+\.?\d*`: two adjacent runs of digits backtrack quadratically on a long number that fails.
  return value && /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(value) ? Number(value) : null;
}

function textOf(node: XNode | undefined): string {
  if (!node) return '';
  return childrenOf(node)
    .map((c) => (typeof c['#text'] === 'string' ? decodeXmlText(c['#text']) : textOf(c)))
    .join('');
}

/**
 * Parses an ALTO v2–v4 file in document order. As for PAGE, a DTD is refused, so no entity can be
 * defined and the text comes out exactly as written (String@CONTENT joined by single spaces).
 */
export function parseAltoXml(xml: string): AltoDocument {
  const parser = safeXmlParser(xml, 'XML file', { preserveOrder: true });
  const root = first(parser.parse(xml) as XNode[], 'alto');
  // Prefixes are removed, so the version is read from the namespace declaration itself.
  const version = /xmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/www\.loc\.gov\/standards\/alto\/ns-v([234])#["']/.exec(xml)?.[1];
  if (!root || !version) throw unsupportedMediaType(NOT_ALTO);
  const top = childrenOf(root);
  const description = childrenOf(first(top, 'Description') ?? {});
  const unit = textOf(first(description, 'MeasurementUnit')).trim() || 'pixel';
  if (!UNITS.has(unit)) throw badRequest(`This ALTO file measures in "${unit}": only pixel, mm10 and inch1200 are known.`);
  const source = childrenOf(first(description, 'sourceImageInformation') ?? {});
  const fileName = textOf(first(source, 'fileName')).trim() || null;
  const processing = [...elements(description, 'OCRProcessing'), ...elements(description, 'Processing')];
  const software = processing
    .flatMap((p) => findAll(p, 'softwareName'))
    .map((n) => textOf(n).trim())
    .find(Boolean);
  const pages = findAll(first(top, 'Layout') ?? {}, 'Page');
  if (pages.length !== 1) {
    throw badRequest(`This ALTO file has ${pages.length} pages: import one page per file, each with its image.`);
  }
  const page = pages[0]!;
  return {
    version,
    software: software ?? null,
    fileName,
    unit: unit as AltoDocument['unit'],
    pageWidth: num(page, 'WIDTH'),
    pageHeight: num(page, 'HEIGHT'),
    regions: findAll(page, 'TextBlock').map((block) => ({
      id: attr(block, 'ID'),
      shape: shapeOf(block),
      lines: elements(childrenOf(block), 'TextLine').map(lineOf),
    })),
  };
}

/** Every element called `name` below `node`, in document order, not looking inside a match. */
function findAll(node: XNode, name: string): XNode[] {
  return childrenOf(node).flatMap((c) => (nameOf(c) === name ? [c] : findAll(c, name)));
}

function lineOf(line: XNode): AltoLine {
  const parts = childrenOf(line);
  const words = elements(parts, 'String').map((s) => ({
    id: attr(s, 'ID'),
    shape: shapeOf(s),
    text: attr(s, 'CONTENT') ?? '',
    confidence: num(s, 'WC'),
  }));
  // HYP is the hyphen the line ends with: it belongs to the last word, not after a space.
  const hyphen = elements(parts, 'HYP').map((h) => attr(h, 'CONTENT') ?? '').join('');
  const baselineText = attr(line, 'BASELINE')?.trim() ?? '';
  const baselineNumber = num(line, 'BASELINE');
  return {
    id: attr(line, 'ID'),
    shape: shapeOf(line),
    baseline: baselineNumber ?? (baselineText ? pairs(baselineText) : null),
    text: words.map((w) => w.text).join(' ') + hyphen,
    words,
  };
}

/** The element's Shape/Polygon when it has one, else its HPOS/VPOS/WIDTH/HEIGHT rectangle. */
function shapeOf(node: XNode): Shape | null {
  const polygon = first(childrenOf(first(childrenOf(node), 'Shape') ?? {}), 'Polygon');
  const points = polygon ? pairs(attr(polygon, 'POINTS') ?? '') : null;
  if (points && points.length > 0) return { kind: 'polygon', points };
  const [x, y, w, h] = ['HPOS', 'VPOS', 'WIDTH', 'HEIGHT'].map((a) => num(node, a));
  return x !== null && y !== null && w !== null && h !== null ? { kind: 'box', x: x!, y: y!, w: w!, h: h! } : null;
}

/** "x,y x,y" or "x y x y" (both occur in ALTO files) as coordinate pairs. */
function pairs(text: string): number[][] | null {
  const values = text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (values.length < 2 || values.length % 2 !== 0 || values.some((v) => !Number.isFinite(v))) return null;
  return values.flatMap((v, i) => (i % 2 === 0 ? [[v, values[i + 1]!]] : []));
}

/**
 * The layout in PAGE's shape and in image pixels: mm10 and inch1200 coordinates are scaled by the
 * image's size over the Page's WIDTH/HEIGHT (the only link between the two the file gives).
 */
export function altoRegions(doc: AltoDocument, image: { width: number; height: number }): LayoutRegion[] {
  let sx = 1;
  let sy = 1;
  if (doc.unit !== 'pixel') {
    if (!doc.pageWidth || !doc.pageHeight) {
      throw badRequest(`This ALTO file measures in ${doc.unit} but its Page has no WIDTH and HEIGHT, so its coordinates cannot be converted to pixels.`);
    }
    sx = image.width / doc.pageWidth;
    sy = image.height / doc.pageHeight;
  }
  const fmt = (v: number, s: number) => String(s === 1 ? v : Math.round(v * s));
  const point = ([x, y]: number[]) => `${fmt(x!, sx)},${fmt(y!, sy)}`;
  const coords = (shape: Shape | null): string | null => {
    if (!shape) return null;
    if (shape.kind === 'polygon') return shape.points.map(point).join(' ');
    const { x, y, w, h } = shape;
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(point).join(' ');
  };
  const baseline = (line: AltoLine): string | null => {
    if (line.baseline === null) return null;
    if (Array.isArray(line.baseline)) return line.baseline.map(point).join(' ');
    const box = line.shape?.kind === 'box' ? line.shape : null;
    return box ? [[box.x, line.baseline], [box.x + box.w, line.baseline]].map(point).join(' ') : null;
  };
  return doc.regions.map((region) => ({
    id: region.id,
    type: 'text',
    coords: coords(region.shape),
    lines: region.lines.map((line) => ({
      id: line.id,
      coords: coords(line.shape),
      baseline: baseline(line),
      text: line.text,
      words: line.words.map((w) => ({ id: w.id, coords: coords(w.shape), text: w.text, confidence: w.confidence })),
    })),
  }));
}
