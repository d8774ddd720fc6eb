/**
 * The characters a WOFF2 font has glyphs for, read from its cmap table, so a test can check that
 * the shipped font covers what manuscripts hold. Just enough of WOFF2 (W3C WOFF File Format 2.0)
 * for that: the table directory, the one Brotli stream, and a format 12 or 4 cmap subtable.
 */

/** WOFF2's known table tags, by the index a directory entry gives (§ 5.1), up to those we meet. */
const KNOWN_TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF '];

function readBase128(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = bytes[offset + i]!;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new Error('UIntBase128 longer than 5 bytes');
}

export function woff2CodePoints(bytes: Uint8Array, brotliDecompress: (data: Uint8Array) => Uint8Array): Set<number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x774f4632) throw new Error('not a WOFF2 file');
  const numTables = view.getUint16(12);
  const compressedLength = view.getUint32(20);
  let offset = 48;
  const tables: { tag: string; length: number }[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = bytes[offset++]!;
    const tagIndex = flags & 0x3f;
    let tag = KNOWN_TAGS[tagIndex] ?? `#${tagIndex}`;
    if (tagIndex === 63) {
      tag = String.fromCharCode(...bytes.subarray(offset, offset + 4));
      offset += 4;
    }
    let length: number;
    [length, offset] = readBase128(bytes, offset);
    // glyf and loca are transformed unless their version says otherwise; other tables only when it says so.
    const version = flags >> 6;
    if ((tag === 'glyf' || tag === 'loca') === (version === 0)) [length, offset] = readBase128(bytes, offset);
    tables.push({ tag, length });
  }
  const data = brotliDecompress(bytes.subarray(offset, offset + compressedLength));
  let at = 0;
  for (const table of tables) {
    if (table.tag === 'cmap') return cmapCodePoints(data.subarray(at, at + table.length));
    at += table.length;
  }
  throw new Error('no cmap table');
}

/**
 * The code points of the cmap that map to a glyph other than .notdef: its format 12 subtable (all
 * of Unicode) when it has one, else its format 4 (the Basic Multilingual Plane).
 */
function cmapCodePoints(cmap: Uint8Array): Set<number> {
  const view = new DataView(cmap.buffer, cmap.byteOffset, cmap.byteLength);
  const subtables = Array.from({ length: view.getUint16(2) }, (_, i) => view.getUint32(4 + i * 8 + 4));
  const format12 = subtables.find((at) => view.getUint16(at) === 12);
  if (format12 !== undefined) return format12CodePoints(view, format12);
  const format4 = subtables.find((at) => view.getUint16(at) === 4);
  if (format4 !== undefined) return format4CodePoints(view, format4);
  throw new Error('no format 12 or 4 cmap subtable');
}

function format12CodePoints(view: DataView, subtable: number): Set<number> {
  const found = new Set<number>();
  for (let g = 0; g < view.getUint32(subtable + 12); g++) {
    const group = subtable + 16 + g * 12;
    const [start, end, glyph] = [view.getUint32(group), view.getUint32(group + 4), view.getUint32(group + 8)];
    for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) found.add(c);
  }
  return found;
}

function format4CodePoints(view: DataView, subtable: number): Set<number> {
  const found = new Set<number>();
  const segments = view.getUint16(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const [start, end] = [view.getUint16(starts + s * 2), view.getUint16(ends + s * 2)];
    const [delta, rangeOffset] = [view.getUint16(deltas + s * 2), view.getUint16(rangeOffsets + s * 2)];
    for (let c = start; c <= end && c !== 0xffff; c++) {
      const direct = rangeOffset === 0;
      const indexed = direct ? c : view.getUint16(rangeOffsets + s * 2 + rangeOffset + (c - start) * 2);
      const glyph = direct || indexed !== 0 ? (indexed + delta) & 0xffff : 0;
      if (glyph !== 0) found.add(c);
    }
  }
  return found;
}
