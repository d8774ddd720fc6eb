import { badRequest, unsupportedMediaType } from '../../platform/errors.js';
import { XML_WITH_DTD, safeXmlParser } from './safe-xml.js';

export const UNKNOWN_XML = 'This XML is not a transcription PIM can read: import PAGE 2013 or 2019, ALTO v2 to v4, or hOCR files.';

/** One text line of a PAGE file, as stored in the transcription's layout (lossless text). */
export interface PageLine {
  id: string | null;
  coords: string | null;
  baseline: string | null;
  text: string;
}

export interface PageRegion {
  id: string | null;
  type: string;
  coords: string | null;
  lines: PageLine[];
}

export interface PageDocument {
  /** 2013 or 2019, from the namespace. */
  version: string;
  creator: string | null;
  imageFilename: string;
  imageWidth: number | null;
  imageHeight: number | null;
  regions: PageRegion[];
}

type Node = Record<string, unknown>;

/** Elements that may repeat; fast-xml-parser makes them arrays even when there is one. */
const REPEATED = new Set(['TextRegion', 'TextLine', 'TextEquiv', 'TableRegion', 'TableCell']);

/**
 * Parses a PAGE 2013/2019 file. Entities are never expanded by the parser (a DTD is refused
 * outright, so no entity can be defined); the five predefined ones and character references are
 * decoded here, so the text comes out exactly as written.
 */
export function parsePageXml(xml: string): PageDocument {
  const parser = safeXmlParser(xml, 'XML file', { isArray: (name) => REPEATED.has(name) });
  const root = (parser.parse(xml) as Node).PcGts as Node | undefined;
  // Namespace declarations are gone once prefixes are removed, so the version is read from the text.
  const version = /xmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/schema\.primaresearch\.org\/PAGE\/gts\/pagecontent\/(\d{4})/.exec(xml)?.[1];
  const page = root?.Page as Node | undefined;
  if (!root || !version || !page) throw unsupportedMediaType(UNKNOWN_XML);
  const imageFilename = attr(page, 'imageFilename');
  if (!imageFilename) throw badRequest('This PAGE file does not name its image (Page@imageFilename is missing).');
  const metadata = root.Metadata as Node | undefined;
  return {
    version,
    creator: metadata ? textOf(metadata.Creator)?.trim() || null : null,
    imageFilename,
    imageWidth: numberAttr(page, 'imageWidth'),
    imageHeight: numberAttr(page, 'imageHeight'),
    regions: collectRegions(page),
  };
}

/** Text regions anywhere below `node` (tables and nested regions included), in document order. */
function collectRegions(node: Node): PageRegion[] {
  const regions: PageRegion[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@') || key === '#text') continue;
    for (const child of [value].flat()) {
      if (typeof child !== 'object' || child === null) continue;
      if (key === 'TextRegion') {
        const region = child as Node;
        regions.push({
          id: attr(region, 'id'),
          type: attr(region, 'type') ?? 'text',
          coords: points(region.Coords),
          lines: ((region.TextLine as Node[] | undefined) ?? []).map((line) => ({
            id: attr(line, 'id'),
            coords: points(line.Coords),
            baseline: points(line.Baseline),
            text: unicodeOf(line),
          })),
        });
      }
      regions.push(...collectRegions(child as Node));
    }
  }
  return regions;
}

/** The line's own TextEquiv (the one with the lowest index when there are several). */
function unicodeOf(line: Node): string {
  const equivs = (line.TextEquiv as Node[] | undefined) ?? [];
  const chosen = [...equivs].sort((a, b) => (numberAttr(a, 'index') ?? 0) - (numberAttr(b, 'index') ?? 0))[0];
  return chosen ? (textOf(chosen.Unicode) ?? '') : '';
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return decodeXmlText(value);
  if (value && typeof value === 'object' && typeof (value as Node)['#text'] === 'string') {
    return decodeXmlText((value as Node)['#text'] as string);
  }
  return value && typeof value === 'object' ? '' : null;
}

function attr(node: Node, name: string): string | null {
  const value = node[`@${name}`];
  return typeof value === 'string' ? decodeXmlText(value) : null;
}

function numberAttr(node: Node, name: string): number | null {
  const value = attr(node, name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

function points(coords: unknown): string | null {
  return coords && typeof coords === 'object' ? attr(coords as Node, 'points') : null;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; any other entity is an error. */
export function decodeXmlText(text: string): string {
  return text.replace(/&([^;&\s]*);/g, (whole, name: string) => {
    if (name in PREDEFINED) return PREDEFINED[name]!;
    const code = /^#x([0-9a-fA-F]+)$/.exec(name)?.[1] ?? /^#(\d+)$/.exec(name)?.[1];
    if (code !== undefined) {
      const point = name.startsWith('#x') ? parseInt(code, 16) : parseInt(code, 10);
      if (point <= 0x10ffff) return String.fromCodePoint(point);
    }
    throw badRequest(`${XML_WITH_DTD} (found ${whole})`);
  });
}
