import { badRequest, unsupportedMediaType } from '../../platform/errors.js';
import { XML_WITH_DTD, safeXmlParser } from './safe-xml.js';
import { readingOrderOf, type ReadingOrderGroup } from './page-reading-order.js';

export type { ReadingOrderGroup, ReadingOrderMember } from './page-reading-order.js';

export const UNKNOWN_XML = 'This XML is not a transcription PIM can read: import PAGE 2013 or 2019, ALTO v2 to v4, or hOCR files.';

/** A Glyph of a PAGE Word. */
export interface PageGlyph {
  id: string | null;
  coords: string | null;
  text: string;
}

/**
 * A Word of a PAGE line; ALTO and hOCR words have the same shape without language and glyphs.
 * `confidence` is TextEquiv@conf (0..1) of the word's main text, when the file gives it.
 */
export interface PageWord {
  id: string | null;
  coords: string | null;
  text: string;
  confidence: number | null;
  /** Word@language as written. Absent in layouts stored before words were kept. */
  language?: string | null;
  glyphs?: PageGlyph[];
}

/** One text line of a PAGE file, as stored in the transcription's layout (lossless text). */
export interface PageLine {
  id: string | null;
  coords: string | null;
  baseline: string | null;
  text: string;
  /** TextLine@primaryLanguage as written. The optional fields are absent in older layouts. */
  language?: string | null;
  words?: PageWord[];
}

export interface PageRegion {
  id: string | null;
  type: string;
  coords: string | null;
  /** TextRegion@primaryLanguage as written. */
  language?: string | null;
  /** The region's own TextEquiv, when it has one. */
  text?: string | null;
  /** TextRegion@readingDirection (left-to-right, right-to-left, ...), only when the file gives it. */
  readingDirection?: string;
  lines: PageLine[];
}

export interface PageDocument {
  /** 2013 or 2019, from the namespace. */
  version: string;
  creator: string | null;
  imageFilename: string;
  imageWidth: number | null;
  imageHeight: number | null;
  /** Page@primaryLanguage, else the language most regions declare, else most lines (PAGE's names: "German"). */
  language: string | null;
  /** Page@readingDirection as written: right-to-left pages read their columns from the right. */
  readingDirection: string | null;
  regions: PageRegion[];
  readingOrder: ReadingOrderGroup | null;
}

type Node = Record<string, unknown>;

/** Elements that may repeat; fast-xml-parser makes them arrays even when there is one. */
const REPEATED = new Set([
  'TextRegion', 'TextLine', 'TextEquiv', 'TableRegion', 'TableCell', 'Word', 'Glyph',
  'OrderedGroup', 'UnorderedGroup', 'OrderedGroupIndexed', 'UnorderedGroupIndexed', 'RegionRef', 'RegionRefIndexed',
]);

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
  const regions = collectRegions(page);
  return {
    version,
    creator: metadata ? textOf(metadata.Creator)?.trim() || null : null,
    imageFilename,
    imageWidth: numberAttr(page, 'imageWidth'),
    imageHeight: numberAttr(page, 'imageHeight'),
    language:
      attr(page, 'primaryLanguage') ??
      mostDeclared(regions.map((r) => r.language)) ??
      mostDeclared(regions.flatMap((r) => r.lines.map((l) => l.language))),
    readingDirection: attr(page, 'readingDirection'),
    regions,
    readingOrder: readingOrderOf(page.ReadingOrder, attr),
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
        const readingDirection = attr(region, 'readingDirection');
        regions.push({
          id: attr(region, 'id'),
          type: attr(region, 'type') ?? 'text',
          coords: points(region.Coords),
          language: attr(region, 'primaryLanguage'),
          text: region.TextEquiv ? mainTextEquiv(region).text : null,
          ...(readingDirection !== null && { readingDirection }),
          lines: nodes(region.TextLine).map(lineOf),
        });
      }
      regions.push(...collectRegions(child as Node));
    }
  }
  return regions;
}

function lineOf(line: Node): Required<PageLine> {
  return {
    id: attr(line, 'id'),
    coords: points(line.Coords),
    baseline: points(line.Baseline),
    text: mainTextEquiv(line).text,
    language: attr(line, 'primaryLanguage'),
    words: nodes(line.Word).map((word) => {
      const { text, confidence } = mainTextEquiv(word);
      return {
        id: attr(word, 'id'),
        coords: points(word.Coords),
        text,
        confidence,
        language: attr(word, 'language'),
        glyphs: nodes(word.Glyph).map((glyph) => ({ id: attr(glyph, 'id'), coords: points(glyph.Coords), text: mainTextEquiv(glyph).text })),
      };
    }),
  };
}

/** The element's own TextEquiv (the one with the lowest index when there are several), with its conf. */
function mainTextEquiv(element: Node): { text: string; confidence: number | null } {
  const equivs = nodes(element.TextEquiv);
  const chosen = [...equivs].sort((a, b) => (numberAttr(a, 'index') ?? 0) - (numberAttr(b, 'index') ?? 0))[0];
  if (!chosen) return { text: '', confidence: null };
  const confText = attr(chosen, 'conf')?.trim();
  const conf = confText ? Number(confText) : NaN;
  return { text: textOf(chosen.Unicode) ?? '', confidence: conf >= 0 && conf <= 1 ? conf : null };
}

/** The language declared most often (the first of those tied), or null when none is. */
function mostDeclared(languages: (string | null | undefined)[]): string | null {
  const counts = new Map<string, number>();
  for (const language of languages) if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  let best: string | null = null;
  for (const [language, count] of counts) if (best === null || count > counts.get(best)!) best = language;
  return best;
}

function nodes(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter((v): v is Node => typeof v === 'object' && v !== null) : [];
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
