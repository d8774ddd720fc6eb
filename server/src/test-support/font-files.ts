/**
 * Small but complete sfnt fonts written table by table, so font tests need no system fonts: one
 * glyph (.notdef, an empty outline), a format 4 cmap mapping nothing, and a name table with the
 * family and full name as Windows (UTF-16BE) and Mac (ASCII) records.
 */

export interface TestFontOptions {
  /** TrueType outlines (glyf/loca, version 0x00010000) or CFF outlines ('OTTO'). */
  flavour?: 'TrueType' | 'OpenType';
  family?: string;
  fullName?: string;
  /** Leave these tables out, to make a damaged font. */
  without?: string[];
  /** Extra bytes appended after the tables, to make a larger file. */
  padding?: number;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n & 0xffff);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const i16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};

function headTable(): Buffer {
  return Buffer.concat([
    u32(0x00010000), // version
    u32(0x00010000), // fontRevision
    u32(0), // checkSumAdjustment, set when the font is assembled
    u32(0x5f0f3cf5), // magicNumber
    u16(0x000b), // flags
    u16(1000), // unitsPerEm
    Buffer.alloc(8), // created
    Buffer.alloc(8), // modified
    i16(0), i16(-200), i16(500), i16(800), // xMin, yMin, xMax, yMax
    u16(0), u16(8), i16(2), i16(0), i16(0), // macStyle, lowestRecPPEM, fontDirectionHint, indexToLocFormat (short), glyphDataFormat
  ]);
}

function hheaTable(): Buffer {
  return Buffer.concat([u32(0x00010000), i16(800), i16(-200), i16(0), u16(500), i16(0), i16(0), i16(500), i16(1), i16(0), i16(0), Buffer.alloc(8), i16(0), u16(1)]);
}

function maxpTable(flavour: 'TrueType' | 'OpenType'): Buffer {
  // Version 0.5 (CFF) has only the glyph count; 1.0 (TrueType) adds the outline limits.
  return flavour === 'OpenType' ? Buffer.concat([u32(0x00005000), u16(1)]) : Buffer.concat([u32(0x00010000), u16(1), Buffer.alloc(26)]);
}

function cmapTable(): Buffer {
  // One Windows Unicode BMP subtable, format 4, with only the closing 0xFFFF segment.
  const subtable = Buffer.concat([u16(4), u16(24), u16(0), u16(2), u16(2), u16(0), u16(0), u16(0xffff), u16(0), u16(0xffff), u16(1), u16(0)]);
  return Buffer.concat([u16(0), u16(1), u16(3), u16(1), u32(12), subtable]);
}

function nameTable(family: string, fullName: string): Buffer {
  const strings: { platform: number; encoding: number; language: number; nameId: number; bytes: Buffer }[] = [];
  const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
  for (const [nameId, text] of [
    [1, family],
    [4, fullName],
  ] as const) {
    strings.push({ platform: 1, encoding: 0, language: 0, nameId, bytes: Buffer.from(text.replace(/[^\x20-\x7e]/g, '?'), 'latin1') });
    strings.push({ platform: 3, encoding: 1, language: 0x409, nameId, bytes: utf16be(text) });
  }
  strings.sort((a, b) => a.platform - b.platform || a.nameId - b.nameId);
  let offset = 0;
  const records = strings.map((s) => {
    const record = Buffer.concat([u16(s.platform), u16(s.encoding), u16(s.language), u16(s.nameId), u16(s.bytes.length), u16(offset)]);
    offset += s.bytes.length;
    return record;
  });
  return Buffer.concat([u16(0), u16(strings.length), u16(6 + 12 * strings.length), ...records, ...strings.map((s) => s.bytes)]);
}

function postTable(): Buffer {
  return Buffer.concat([u32(0x00030000), u32(0), i16(-100), i16(50), u32(0), Buffer.alloc(16)]);
}

/** A CFF table with the one empty .notdef glyph (header, Name, Top DICT, String and Subr indexes, CharStrings). */
function cffTable(fontName: string): Buffer {
  const index = (items: Buffer[]) => {
    if (items.length === 0) return u16(0);
    const offsets = [1];
    for (const item of items) offsets.push(offsets.at(-1)! + item.length);
    return Buffer.concat([u16(items.length), Buffer.from([1]), Buffer.from(offsets), ...items]);
  };
  const name = index([Buffer.from(fontName.replace(/[^\x21-\x7e]/g, '') || 'Test')]);
  const strings = index([]);
  const globalSubrs = index([]);
  const charStrings = index([Buffer.from([14])]); // endchar
  // Top DICT: CharStrings offset (operator 17) as a 2-byte integer (28 b1 b2); its length is fixed.
  const topDictLength = 4;
  const topIndexLength = 2 + 1 + 2 + topDictLength;
  const charStringsOffset = 4 + name.length + topIndexLength + strings.length + globalSubrs.length;
  const topDict = Buffer.from([28, (charStringsOffset >> 8) & 0xff, charStringsOffset & 0xff, 17]);
  return Buffer.concat([Buffer.from([1, 0, 4, 1]), name, index([topDict]), strings, globalSubrs, charStrings]);
}

function checksum(table: Buffer): number {
  const padded = Buffer.concat([table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** A font file that a font renderer loads, with the given names. */
export function testFont(options: TestFontOptions = {}): Buffer {
  const flavour = options.flavour ?? 'TrueType';
  const family = options.family ?? 'PIM Test Sans';
  const fullName = options.fullName ?? `${family} Regular`;
  const tables: Record<string, Buffer> = {
    cmap: cmapTable(),
    head: headTable(),
    hhea: hheaTable(),
    hmtx: Buffer.concat([u16(500), i16(0)]),
    maxp: maxpTable(flavour),
    name: nameTable(family, fullName),
    post: postTable(),
    ...(flavour === 'TrueType' ? { glyf: Buffer.alloc(0), loca: Buffer.concat([u16(0), u16(0)]) } : { 'CFF ': cffTable(family) }),
  };
  for (const tag of options.without ?? []) delete tables[tag];
  const tags = Object.keys(tables).sort();
  const directoryLength = 12 + 16 * tags.length;
  const entrySelector = Math.floor(Math.log2(tags.length));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.concat([
    flavour === 'TrueType' ? u32(0x00010000) : Buffer.from('OTTO', 'latin1'),
    u16(tags.length),
    u16(searchRange),
    u16(entrySelector),
    u16(tags.length * 16 - searchRange),
  ]);
  const records: Buffer[] = [];
  const bodies: Buffer[] = [];
  let offset = directoryLength;
  for (const tag of tags) {
    const table = tables[tag]!;
    records.push(Buffer.concat([Buffer.from(tag, 'latin1'), u32(checksum(table)), u32(offset), u32(table.length)]));
    const padded = Buffer.concat([table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  }
  const font = Buffer.concat([header, ...records, ...bodies, Buffer.alloc(options.padding ?? 0)]);
  const headAt = font.indexOf(Buffer.from([0x5f, 0x0f, 0x3c, 0xf5])) - 12;
  if (headAt >= 0) font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}

/** The same font with its 'head' magic number overwritten. */
export function withBadHeadMagic(font: Buffer): Buffer {
  const copy = Buffer.from(font);
  const at = copy.indexOf(Buffer.from([0x5f, 0x0f, 0x3c, 0xf5]));
  copy.writeUInt32BE(0xdeadbeef, at);
  return copy;
}
