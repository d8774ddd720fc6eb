import type { DrawingShape } from '@pim/contract';
import { drawnPageElements } from './page-xml-drawings.js';

export const PAGE_2019_NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';
const PAGE_2019_XSD = `${PAGE_2019_NS}/pagecontent.xsd`;

/** What one PAGE file is made from: the image and the layout of its newest transcription. */
export interface PageExportInput {
  imageFilename: string;
  imageWidth: number;
  imageHeight: number;
  created: Date;
  lastChange: Date;
  /** A transcription's stored layout (uploads/page-xml.ts shape), or null when there is none. */
  layout: unknown;
  /** Shapes drawn on the image with the drawing tool; exported after the layout's regions. */
  drawing?: DrawingShape[];
  /** Ground truth people gave the layout's lines, by line index in reading order (text lines). */
  groundTruth?: ReadonlyMap<number, string>;
}

interface Line {
  id: string | null;
  coords: string | null;
  baseline: string | null;
  text: string;
}
interface Region {
  id: string | null;
  type: string | null;
  coords: string | null;
  lines: Line[];
}

/** The region types PAGE 2019 allows on TextRegion@type; others (e.g. 'text') are left out. */
const TEXT_TYPES = new Set([
  'paragraph', 'heading', 'caption', 'header', 'footer', 'page-number', 'drop-capital', 'credit', 'floating',
  'signature-mark', 'catch-word', 'marginalia', 'footnote', 'footnote-continued', 'endnote', 'TOC-entry', 'list-label', 'other',
]);
const POINTS = /^\d+,\d+( \d+,\d+)+$/;
const NCNAME = /^[A-Za-z_][\w.-]*$/;

/**
 * A PAGE 2019 document valid against the PRImA XSD. Stored ids, points and types are kept when
 * the schema accepts them; otherwise ids are made unique and missing outlines fall back to the
 * enclosing outline (or the whole page), because the schema requires Coords on every region and line.
 */
export function pageXmlFor(input: PageExportInput): string {
  const pageBox = box(0, 0, Math.max(0, input.imageWidth - 1), Math.max(0, input.imageHeight - 1));
  const ids = new Set<string>();
  const uniqueId = (wanted: string | null, fallback: string) => {
    let id = wanted && NCNAME.test(wanted) && !ids.has(wanted) ? wanted : fallback;
    for (let n = 2; ids.has(id); n += 1) id = `${fallback}_${n}`;
    ids.add(id);
    return id;
  };
  let lineIndex = -1;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<PcGts xmlns="${PAGE_2019_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${PAGE_2019_NS} ${PAGE_2019_XSD}">`,
    '  <Metadata>',
    '    <Creator>PIM</Creator>',
    `    <Created>${input.created.toISOString()}</Created>`,
    `    <LastChange>${input.lastChange.toISOString()}</LastChange>`,
    '  </Metadata>',
    `  <Page imageFilename="${escapeAttr(input.imageFilename)}" imageWidth="${input.imageWidth}" imageHeight="${input.imageHeight}">`,
  ];
  regionsOf(input.layout).forEach((region, r) => {
    const regionId = uniqueId(region.id, `r${r + 1}`);
    const lineCoords = region.lines.map((l) => validPoints(l.coords));
    const regionCoords = validPoints(region.coords) ?? enclosing(lineCoords) ?? pageBox;
    const type = region.type && TEXT_TYPES.has(region.type) ? ` type="${region.type}"` : '';
    out.push(`    <TextRegion id="${escapeAttr(regionId)}"${type}>`, `      <Coords points="${regionCoords}"/>`);
    region.lines.forEach((line, l) => {
      const lineId = uniqueId(line.id, `${regionId}_l${l + 1}`);
      const baseline = validPoints(line.baseline);
      lineIndex += 1;
      out.push(
        `      <TextLine id="${escapeAttr(lineId)}">`,
        `        <Coords points="${lineCoords[l] ?? regionCoords}"/>`,
        ...(baseline ? [`        <Baseline points="${baseline}"/>`] : []),
        ...textEquivs(line.text, input.groundTruth?.get(lineIndex)),
        '      </TextLine>',
      );
    });
    out.push('    </TextRegion>');
  });
  out.push(...drawnPageElements(input.drawing ?? [], uniqueId, input.imageHeight));
  out.push('  </Page>', '</PcGts>', '');
  return out.join('\n');
}

/** PAGE's convention: the lowest index is the main text, so ground truth is 0 and the recognised text 1. */
function textEquivs(text: string, groundTruth: string | undefined): string[] {
  if (groundTruth === undefined) return [`        <TextEquiv><Unicode>${escapeText(text)}</Unicode></TextEquiv>`];
  return [
    `        <TextEquiv index="0"><Unicode>${escapeText(groundTruth)}</Unicode></TextEquiv>`,
    `        <TextEquiv index="1"><Unicode>${escapeText(text)}</Unicode></TextEquiv>`,
  ];
}

/** Regions and lines of a stored layout, read defensively: layouts are JSON from several importers. */
function regionsOf(layout: unknown): Region[] {
  const regions = (layout as { regions?: unknown } | null)?.regions;
  if (!Array.isArray(regions)) return [];
  return regions.filter(isObject).map((r) => ({
    id: stringOrNull(r.id),
    type: stringOrNull(r.type),
    coords: stringOrNull(r.coords),
    lines: (Array.isArray(r.lines) ? r.lines : []).filter(isObject).map((l) => ({
      id: stringOrNull(l.id),
      coords: stringOrNull(l.coords),
      baseline: stringOrNull(l.baseline),
      text: typeof l.text === 'string' ? l.text : '',
    })),
  }));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function validPoints(points: string | null): string | null {
  const normal = points?.trim().replace(/\s+/g, ' ') ?? '';
  return POINTS.test(normal) ? normal : null;
}

/** The bounding box of the given outlines, or null when there are none. */
function enclosing(outlines: (string | null)[]): string | null {
  const xy = outlines.flatMap((o) => (o ? o.split(' ').map((p) => p.split(',').map(Number) as [number, number]) : []));
  if (xy.length === 0) return null;
  const xs = xy.map((p) => p[0]);
  const ys = xy.map((p) => p[1]);
  return box(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
}

function box(x0: number, y0: number, x1: number, y1: number): string {
  return `${x0},${y0} ${x1},${y0} ${x1},${y1} ${x0},${y1}`;
}

/** Characters XML 1.0 cannot carry at all; everything else is kept exactly. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeText(s: string): string {
  // \r is written as a reference: a parser would otherwise turn it into \n.
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
