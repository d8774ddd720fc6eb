/** A region in a ReadingOrder group, by its id; `index` is RegionRefIndexed@index in an ordered group. */
export interface ReadingOrderRegion {
  kind: 'region';
  regionRef: string;
  index: number | null;
}

/**
 * PAGE's ReadingOrder: an OrderedGroup (members in their order) or an UnorderedGroup, nested.
 * An ordered group's members are sorted by their index; an unordered group's keep no order.
 */
export interface ReadingOrderGroup {
  kind: 'ordered' | 'unordered';
  id: string | null;
  caption: string | null;
  /** GroupTypeSimpleType: paragraph, list, list-item, figure, article, div, other. */
  type: string | null;
  /** A parent region that doubles as this group. */
  regionRef: string | null;
  /** @index of an OrderedGroupIndexed or UnorderedGroupIndexed inside an ordered group. */
  index: number | null;
  members: ReadingOrderMember[];
}

export type ReadingOrderMember = ReadingOrderRegion | ReadingOrderGroup;

type Node = Record<string, unknown>;
type Attr = (node: Node, name: string) => string | null;

/** The Page's ReadingOrder element as fast-xml-parser gives it (group elements as arrays), or null. */
export function readingOrderOf(readingOrder: unknown, attr: Attr): ReadingOrderGroup | null {
  if (!isNode(readingOrder)) return null;
  const ordered = nodes(readingOrder.OrderedGroup)[0];
  const unordered = nodes(readingOrder.UnorderedGroup)[0];
  if (ordered) return group(ordered, 'ordered', attr);
  return unordered ? group(unordered, 'unordered', attr) : null;
}

function group(node: Node, kind: ReadingOrderGroup['kind'], attr: Attr): ReadingOrderGroup {
  const index = (n: Node) => integer(attr(n, 'index'));
  const members: ReadingOrderMember[] =
    kind === 'ordered'
      ? [
          ...nodes(node.RegionRefIndexed).map((n) => regionRef(n, index(n), attr)),
          ...nodes(node.OrderedGroupIndexed).map((n) => group(n, 'ordered', attr)),
          ...nodes(node.UnorderedGroupIndexed).map((n) => group(n, 'unordered', attr)),
        ].sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity))
      : [
          ...nodes(node.RegionRef).map((n) => regionRef(n, null, attr)),
          ...nodes(node.OrderedGroup).map((n) => group(n, 'ordered', attr)),
          ...nodes(node.UnorderedGroup).map((n) => group(n, 'unordered', attr)),
        ];
  return {
    kind,
    id: attr(node, 'id'),
    caption: attr(node, 'caption'),
    type: attr(node, 'type'),
    regionRef: attr(node, 'regionRef'),
    index: index(node),
    members: members.filter((m) => m.kind !== 'region' || m.regionRef !== ''),
  };
}

function regionRef(node: Node, index: number | null, attr: Attr): ReadingOrderRegion {
  return { kind: 'region', regionRef: attr(node, 'regionRef') ?? '', index };
}

function integer(value: string | null): number | null {
  return value !== null && /^\s*-?\d+\s*$/.test(value) ? Number(value) : null;
}

/**
 * A reading order as a layout stores it (JSON, so read defensively): members that are neither a
 * region with its id nor a group are left out; null when it is no group at all.
 */
export function storedReadingOrder(value: unknown): ReadingOrderGroup | null {
  if (!isNode(value) || Array.isArray(value) || (value.kind !== 'ordered' && value.kind !== 'unordered')) return null;
  const members = (Array.isArray(value.members) ? value.members : []).flatMap((m: unknown): ReadingOrderMember[] => {
    if (isNode(m) && m.kind === 'region') return typeof m.regionRef === 'string' ? [{ kind: 'region', regionRef: m.regionRef, index: storedInteger(m.index) }] : [];
    const group = storedReadingOrder(m);
    return group ? [group] : [];
  });
  return {
    kind: value.kind,
    id: storedString(value.id),
    caption: storedString(value.caption),
    type: storedString(value.type),
    regionRef: storedString(value.regionRef),
    index: storedInteger(value.index),
    members,
  };
}

const storedString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const storedInteger = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const nodes = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isNode) : isNode(v) ? [v] : []);
