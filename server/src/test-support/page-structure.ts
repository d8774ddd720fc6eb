import { XMLParser } from 'fast-xml-parser';

/**
 * The structure of a PAGE file as a test compares it: text regions with their lines, words and
 * glyphs (ids, types, outlines, languages, texts) and the reading order, read with a plain XML
 * parser rather than PIM's own reader.
 */
export interface PageStructure {
  primaryLanguage: string | undefined;
  regions: StructureNode[];
  readingOrder: unknown;
}

interface StructureNode {
  id: string;
  attrs: Record<string, string | undefined>;
  coords: string | undefined;
  texts: string[];
  children: StructureNode[];
}

type Node = Record<string, unknown>;

const REPEATED = new Set([
  'TextRegion', 'TextLine', 'Word', 'Glyph', 'TextEquiv', 'RegionRef', 'RegionRefIndexed',
  'OrderedGroup', 'UnorderedGroup', 'OrderedGroupIndexed', 'UnorderedGroupIndexed',
]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  isArray: (name) => REPEATED.has(name),
});
const GROUPS = ['OrderedGroup', 'UnorderedGroup', 'OrderedGroupIndexed', 'UnorderedGroupIndexed'];

export function pageStructure(xml: string | Buffer): PageStructure {
  const page = (parser.parse(xml.toString()) as Node).PcGts as Node;
  const p = page.Page as Node;
  return {
    primaryLanguage: p['@primaryLanguage'] as string | undefined,
    regions: list(p.TextRegion).map((r) =>
      element(r, ['type', 'primaryLanguage'], list(r.TextLine).map((l) =>
        element(l, ['primaryLanguage'], list(l.Word).map((w) =>
          element(w, ['language'], list(w.Glyph).map((g) => element(g, [], []))),
        ), (l.Baseline as Node | undefined)?.['@points'] as string | undefined),
      )),
    ),
    readingOrder: p.ReadingOrder ? group(p.ReadingOrder as Node) : undefined,
  };
}

function element(node: Node, attrNames: string[], children: StructureNode[], baseline?: string): StructureNode {
  const attrs = Object.fromEntries(attrNames.map((a) => [a, node[`@${a}`] as string | undefined]));
  if (baseline !== undefined) attrs.baseline = baseline;
  return {
    id: node['@id'] as string,
    attrs,
    coords: (node.Coords as Node | undefined)?.['@points'] as string | undefined,
    texts: list(node.TextEquiv).map((e) => String((e as Node).Unicode ?? '')),
    children,
  };
}

/** A group (or the ReadingOrder) as its attributes and members; members of ordered groups by index. */
function group(node: Node): unknown {
  const refs = [...list(node.RegionRefIndexed), ...list(node.RegionRef)].map((r) => ({ ref: r['@regionRef'], index: r['@index'] }));
  const groups = GROUPS.flatMap((name) => list(node[name]).map((g) => ({ [name]: group(g) as object, index: g['@index'] })));
  const members = [...refs, ...groups].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
  const attrs = Object.fromEntries(['id', 'caption', 'type', 'regionRef'].map((a) => [a, node[`@${a}`]]));
  return { ...attrs, members };
}

function list(value: unknown): Node[] {
  return Array.isArray(value) ? (value as Node[]) : [];
}
