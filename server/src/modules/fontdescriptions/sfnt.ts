import { badRequest, unsupportedMediaType } from '../../platform/errors.js';

/**
 * Checks that a file is one TrueType or OpenType font by reading its sfnt structure (the table
 * directory, `head` and `name`), without a font library: what the platform needs of a font is that
 * a renderer can load it, and that the file is what it claims to be.
 */

export type FontFlavour = { type: 'TrueType'; mediaType: 'font/ttf' } | { type: 'OpenType'; mediaType: 'font/otf' };

export interface FontInfo {
  flavour: FontFlavour;
  /** The font's full name (name ID 4) or else its family name (name ID 1), when it has one. */
  name: string | null;
}

export const NOT_A_FONT = 'This file is not a font: upload a TrueType (.ttf) or OpenType (.otf) font file.';
export const WEB_FONT = 'This is a WOFF web font: upload the .ttf or .otf font file it was made from instead.';
export const FONT_COLLECTION =
  'This is a font collection (.ttc) with several fonts in one file: upload a single font as a .ttf or .otf file.';

const TRUETYPE: FontFlavour = { type: 'TrueType', mediaType: 'font/ttf' };
const OPENTYPE: FontFlavour = { type: 'OpenType', mediaType: 'font/otf' };
const HEADER_BYTES = 12;
const TABLE_RECORD_BYTES = 16;
/** Real fonts have a few dozen tables; more is a damaged or hostile file. */
export const MAX_TABLES = 128;
/** The bytes that hold the header and the largest table directory accepted. */
export const FONT_DIRECTORY_BYTES = HEADER_BYTES + MAX_TABLES * TABLE_RECORD_BYTES;
const HEAD_MAGIC = 0x5f0f3cf5;
const REQUIRED_TABLES = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'post'];
/** A name table larger than this is read only this far. */
const NAME_TABLE_READ_MAX = 1024 * 1024;

/** The flavour of a font from its first 4 bytes; a 415 for web fonts, collections and non-fonts. */
export function fontFlavour(head: Buffer): FontFlavour {
  const tag = head.subarray(0, 4).toString('latin1');
  if (head.length >= 4 && head.readUInt32BE(0) === 0x00010000) return TRUETYPE;
  if (tag === 'true') return TRUETYPE;
  if (tag === 'OTTO') return OPENTYPE;
  if (tag === 'wOFF' || tag === 'wOF2') throw unsupportedMediaType(WEB_FONT);
  if (tag === 'ttcf') throw unsupportedMediaType(FONT_COLLECTION);
  throw unsupportedMediaType(NOT_A_FONT);
}

const damaged = (why: string) => badRequest(`This font file is damaged: ${why}.`);

interface TableRecord {
  offset: number;
  length: number;
}

/** Reads the table directory from the file's first bytes; refuses what cannot be a font. */
export function tableDirectory(head: Buffer, fileSize: number): { flavour: FontFlavour; tables: Map<string, TableRecord> } {
  const flavour = fontFlavour(head);
  if (head.length < HEADER_BYTES) throw damaged('it ends inside its header');
  const numTables = head.readUInt16BE(4);
  if (numTables === 0 || numTables > MAX_TABLES) throw damaged(`it claims ${numTables} tables`);
  const directoryEnd = HEADER_BYTES + numTables * TABLE_RECORD_BYTES;
  if (head.length < directoryEnd || fileSize < directoryEnd) throw damaged('it ends inside its table directory');
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < numTables; i += 1) {
    const at = HEADER_BYTES + i * TABLE_RECORD_BYTES;
    const tag = head.subarray(at, at + 4).toString('latin1');
    const offset = head.readUInt32BE(at + 8);
    const length = head.readUInt32BE(at + 12);
    if (tables.has(tag)) throw damaged(`it has two '${tag}' tables`);
    // An empty table may point anywhere (some tools write offset 0); a table with bytes must lie after the directory.
    if ((length > 0 && offset < directoryEnd) || offset + length > fileSize) throw damaged(`its '${tag}' table lies outside the file`);
    tables.set(tag, { offset, length });
  }
  const outlines = flavour.type === 'TrueType' ? ['glyf', 'loca'] : [tables.has('CFF2') ? 'CFF2' : 'CFF '];
  const missing = [...REQUIRED_TABLES, ...outlines].filter((t) => !tables.has(t));
  if (missing.length > 0) throw damaged(`it lacks the required ${missing.map((t) => `'${t.trim()}'`).join(', ')} table${missing.length > 1 ? 's' : ''}`);
  return { flavour, tables };
}

/** Reads bytes of the file: up to `length` from `offset`. */
export type ReadRange = (offset: number, length: number) => Promise<Buffer>;

/** The whole check of a staged font: its directory, its `head` table and the name it gives itself. */
export async function inspectFont(read: ReadRange, fileSize: number): Promise<FontInfo> {
  const { flavour, tables } = tableDirectory(await read(0, FONT_DIRECTORY_BYTES), fileSize);
  const head = tables.get('head')!;
  if (head.length < 54) throw damaged("its 'head' table is too short");
  const headBytes = await read(head.offset, 54);
  if (headBytes.length < 54 || headBytes.readUInt32BE(12) !== HEAD_MAGIC) throw damaged("its 'head' table has the wrong magic number");
  const name = tables.get('name')!;
  return { flavour, name: fontName(await read(name.offset, Math.min(name.length, NAME_TABLE_READ_MAX))) };
}

interface NameRecord {
  platformId: number;
  encodingId: number;
  languageId: number;
  nameId: number;
  text: string;
}

/** The full name, else the family name, preferring Windows English, then any Windows, Unicode and Mac names. */
export function fontName(table: Buffer): string | null {
  if (table.length < 6) return null;
  const count = table.readUInt16BE(2);
  const storage = table.readUInt16BE(4);
  const records: NameRecord[] = [];
  for (let i = 0; i < count && 6 + (i + 1) * 12 <= table.length; i += 1) {
    const at = 6 + i * 12;
    const [platformId, encodingId, languageId, nameId, length, offset] = [0, 2, 4, 6, 8, 10].map((o) => table.readUInt16BE(at + o)) as [
      number, number, number, number, number, number,
    ];
    if (nameId !== 1 && nameId !== 4) continue;
    const start = storage + offset;
    if (start + length > table.length) continue;
    const text = decodeName(table.subarray(start, start + length), platformId, encodingId);
    if (text) records.push({ platformId, encodingId, languageId, nameId, text });
  }
  const rank = (r: NameRecord) =>
    (r.nameId === 4 ? 0 : 10) + (r.platformId === 3 ? (r.languageId === 0x409 ? 0 : 1) : r.platformId === 0 ? 2 : 3);
  return records.sort((a, b) => rank(a) - rank(b))[0]?.text ?? null;
}

function decodeName(bytes: Buffer, platformId: number, encodingId: number): string | null {
  let text: string;
  if (platformId === 0 || (platformId === 3 && (encodingId === 0 || encodingId === 1 || encodingId === 10))) {
    // UTF-16BE: swap into the little-endian order Node decodes.
    const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
    text = swapped.swap16().toString('utf16le');
  } else if (platformId === 1 && encodingId === 0) {
    // Mac Roman agrees with ASCII; a name with other bytes is better taken from another record.
    if (bytes.some((b) => b > 0x7e)) return null;
    text = bytes.toString('latin1');
  } else {
    return null;
  }
  const clean = Array.from(text).filter((c) => c >= ' ' && c !== '\x7f').join('').trim();
  return clean ? clean.slice(0, 255) : null;
}
