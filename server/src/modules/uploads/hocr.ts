import { badRequest } from '../../platform/errors.js';
import type { LayoutRegion, LayoutWord } from './alto-xml.js';
import { decodeXmlText } from './page-xml.js';
import { safeXmlParser } from './safe-xml.js';
import { readProlog } from './sniff.js';

/** Classes hOCR producers use for a line of text (Tesseract 4+ tells headers and captions apart). */
const LINE_CLASSES = ['ocr_line', 'ocrx_line', 'ocr_header', 'ocr_caption', 'ocr_textfloat'];
/** Elements hOCR requires to sit inside an ocr_page (hocr-check's ancestor rule). */
const IN_PAGE_CLASSES = new Set([...LINE_CLASSES, 'ocr_carea', 'ocr_par', 'ocrx_word']);
/**
 * XHTML files (what Tesseract and ocropy write) start with the standard DOCTYPE. Exactly that
 * is let through: an external identifier, never an internal subset, so nothing gets defined.
 * Matched whole against the prolog's DOCTYPE only (anchored, so it cannot backtrack across the file).
 */
const XHTML_DOCTYPE = /^<!DOCTYPE\s+html(?:\s+PUBLIC\s+"-\/\/W3C\/\/DTD XHTML[^"[\]]*"(?:\s+"[^"[\]]*")?)?\s*>$/i;

export interface HocrDocument {
  /** meta ocr-system: the OCR engine, e.g. "tesseract 3.03". */
  system: string;
  /** The ocr_page's `image` property as written, when it has one. */
  imageFilename: string | null;
  pageWidth: number | null;
  pageHeight: number | null;
  regions: LayoutRegion[];
}

type XNode = Record<string, unknown>;
type Line = LayoutRegion['lines'][number];

const nameOf = (node: XNode) => Object.keys(node).find((k) => k !== ':@') ?? '';
const childrenOf = (node: XNode): XNode[] => (Array.isArray(node[nameOf(node)]) ? (node[nameOf(node)] as XNode[]) : []);

/** The XML-predefined entities, character references and &nbsp; (the one HTML name OCR tools write). */
function decodeHtmlText(text: string): string {
  return decodeXmlText(text.replace(/&nbsp;/g, '\u00a0'));
}

function attr(node: XNode, name: string): string | null {
  const value = (node[':@'] as Record<string, unknown> | undefined)?.[`@${name}`];
  return typeof value === 'string' ? decodeHtmlText(value) : null;
}

function textOf(node: XNode): string {
  return childrenOf(node)
    .map((c) => (typeof c['#text'] === 'string' ? decodeHtmlText(c['#text']) : textOf(c)))
    .join('');
}

/** HTML white space collapses when displayed; a no-break space is not white space there. */
const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, ' ').trim();

const classesOf = (node: XNode) => (attr(node, 'class') ?? '').split(/\s+/).filter(Boolean);

function titleOf(node: XNode): Map<string, string> {
  return titleProperties(attr(node, 'title') ?? '');
}

/** The properties of an hOCR title: `image "a.png"; bbox 0 0 10 10; x_wconf 93` (quoted values may hold `;`). */
export function titleProperties(title: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const part of title.match(/(?:"[^"]*"|[^;"])+/g) ?? []) {
    // Split by hand: a lazy group before `\s*$` backtracks quadratically over a long run of spaces.
    const property = part.trim();
    const space = property.search(/\s/);
    if (property) props.set(space === -1 ? property : property.slice(0, space), space === -1 ? '' : property.slice(space).trim());
  }
  return props;
}

function numbers(value: string | undefined): number[] | null {
  const values = value?.split(/\s+/).filter(Boolean).map(Number) ?? [];
  return values.length > 0 && values.every(Number.isFinite) ? values : null;
}

function bboxOf(props: Map<string, string>): [number, number, number, number] | null {
  const box = numbers(props.get('bbox'));
  return box?.length === 4 ? (box as [number, number, number, number]) : null;
}

const rectangle = (box: number[] | null) =>
  box ? `${box[0]},${box[1]} ${box[2]},${box[1]} ${box[2]},${box[3]} ${box[0]},${box[3]}` : null;

/**
 * hOCR's baseline is a polynomial (slope, offset) from the bottom-left corner of the line's box;
 * PAGE stores the line itself, so it is drawn across the box.
 */
function baselineOf(props: Map<string, string>, box: number[] | null): string | null {
  const poly = numbers(props.get('baseline'));
  if (!poly || poly.length !== 2 || !box) return null;
  const [slope, offset] = poly as [number, number];
  const y0 = Math.round(box[3]! + offset);
  const y1 = Math.round(box[3]! + offset + slope * (box[2]! - box[0]!));
  return `${box[0]},${y0} ${box[2]},${y1}`;
}

/**
 * Parses one page of hOCR (XHTML as Tesseract and ocropy write it). Regions are ocr_par (or
 * ocr_carea) elements; lines directly in the page share one region without an id.
 */
export function parseHocr(xml: string): HocrDocument {
  const { doctype } = readProlog(xml);
  const declared = doctype && xml.slice(doctype.start, doctype.end);
  // Blanked but for its line breaks, so the parser's line numbers stay those of the file.
  const body = declared && XHTML_DOCTYPE.test(declared) ? xml.slice(0, doctype.start) + declared.replace(/[^\n]/g, '') + xml.slice(doctype.end) : xml;
  const parser = safeXmlParser(body, 'hOCR file', { preserveOrder: true });
  const tree = parser.parse(body) as XNode[];
  const meta = new Map<string, string>();
  const pages: { node: XNode; regions: LayoutRegion[] }[] = [];
  const loose = new WeakSet<LayoutRegion>();

  const visit = (node: XNode, page: LayoutRegion[] | null, region: LayoutRegion | null): void => {
    const name = nameOf(node);
    if (name === '#text') return;
    if (name === 'meta' && attr(node, 'name')) meta.set(attr(node, 'name')!, attr(node, 'content') ?? '');
    const classes = classesOf(node);
    const outside = classes.find((c) => IN_PAGE_CLASSES.has(c));
    if (outside && !page) {
      throw badRequest(`This hOCR file has an ${outside} outside any ocr_page: every area, paragraph, line and word must be inside an ocr_page.`);
    }
    if (classes.includes('ocr_page')) {
      const regions: LayoutRegion[] = [];
      pages.push({ node, regions });
      for (const child of childrenOf(node)) visit(child, regions, null);
      return;
    }
    if (page && classes.some((c) => LINE_CLASSES.includes(c))) {
      let target = region;
      if (!target) {
        const last = page.at(-1);
        target = last && loose.has(last) ? last : { id: null, type: 'text', coords: null, lines: [] };
        if (target !== last) {
          loose.add(target);
          page.push(target);
        }
      }
      target.lines.push(lineOf(node));
      return;
    }
    let inner = region;
    if (page && (classes.includes('ocr_par') || classes.includes('ocr_carea'))) {
      inner = { id: attr(node, 'id'), type: classes.includes('ocr_par') ? 'paragraph' : 'text', coords: rectangle(bboxOf(titleOf(node))), lines: [] };
      page.push(inner);
    }
    for (const child of childrenOf(node)) visit(child, page, inner);
  };
  for (const node of tree) visit(node, null, null);

  if (!meta.has('ocr-system')) throw badRequest('This hOCR file does not say which OCR system made it: <meta name="ocr-system"> is missing.');
  if (!meta.has('ocr-capabilities')) throw badRequest('This hOCR file does not list its capabilities: <meta name="ocr-capabilities"> is missing.');
  if (pages.length !== 1) {
    throw badRequest(`This hOCR file has ${pages.length} pages (ocr_page): import one page per file, each with its image.`);
  }
  const { node, regions } = pages[0]!;
  const props = titleOf(node);
  const box = bboxOf(props);
  const image = props.get('image')?.replace(/^"(.*)"$/, '$1').trim();
  return {
    system: meta.get('ocr-system')!.trim(),
    imageFilename: image || null,
    pageWidth: box ? box[2] - box[0] : null,
    pageHeight: box ? box[3] - box[1] : null,
    // An ocr_carea holding paragraphs is their frame, not a region with lines of its own.
    regions: regions.filter((r) => r.lines.length > 0),
  };
}

/** A line's text is its words joined by single spaces, or its own text when it has no words. */
function lineOf(node: XNode): Line {
  const props = titleOf(node);
  const box = bboxOf(props);
  const words = wordsIn(node);
  const text = words.length > 0 ? words.map((w) => w.text).filter(Boolean).join(' ') : collapse(textOf(node));
  return { id: attr(node, 'id'), coords: rectangle(box), baseline: baselineOf(props, box), text, words };
}

function wordsIn(node: XNode): LayoutWord[] {
  return childrenOf(node).flatMap((child) => {
    if (nameOf(child) === '#text') return [];
    if (!classesOf(child).includes('ocrx_word')) return wordsIn(child);
    const props = titleOf(child);
    const confidence = numbers(props.get('x_wconf'));
    return [{ id: attr(child, 'id'), coords: rectangle(bboxOf(props)), text: collapse(textOf(child)), confidence: confidence?.[0] ?? null }];
  });
}
