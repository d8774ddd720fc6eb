import { TextDecoder } from 'node:util';
import { badRequest, unsupportedMediaType } from '../../platform/errors.js';

/**
 * Decodes an uploaded XML file as XML 1.0 Appendix F says: a byte order mark decides the encoding
 * (UTF-8, UTF-16 LE or BE); without one, UTF-16 is recognised from `<?` itself and anything else
 * is read by its encoding declaration, or as UTF-8 when it has none. Bytes that are not valid in
 * that encoding are refused rather than turned into U+FFFD, and so is an encoding PIM cannot read.
 */
export function decodeXml(bytes: Uint8Array): string {
  const b = bytes;
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x00, 0x00, 0xfe, 0xff) || starts(0xff, 0xfe, 0x00, 0x00) || starts(0x00, 0x00, 0x00, 0x3c) || starts(0x3c, 0x00, 0x00, 0x00)) {
    throw unsupportedEncoding('UTF-32');
  }
  if (starts(0x4c, 0x6f, 0xa7, 0x94)) throw unsupportedEncoding('EBCDIC');
  if (starts(0xef, 0xbb, 0xbf)) return decodeWith('UTF-8', b.subarray(3));
  if (starts(0xfe, 0xff)) return decodeWith('UTF-16BE', b.subarray(2));
  if (starts(0xff, 0xfe)) return decodeWith('UTF-16LE', b.subarray(2));
  if (starts(0x00, 0x3c, 0x00, 0x3f)) return decodeWith('UTF-16BE', b);
  if (starts(0x3c, 0x00, 0x3f, 0x00)) return decodeWith('UTF-16LE', b);
  const declared = declaredEncoding(b);
  if (declared && /^utf-?16/i.test(declared)) {
    throw badRequest(`This XML file declares the encoding ${declared}, but its bytes are not UTF-16: save it again as UTF-16 or UTF-8.`);
  }
  return decodeWith(declared ?? 'UTF-8', b);
}

/** The `encoding` of the XML declaration, read from the ASCII bytes it is written in (F.1). */
function declaredEncoding(bytes: Uint8Array): string | null {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  if (!/^<\?xml[ \t\r\n]/.test(start)) return null;
  const end = start.indexOf('?>');
  const declaration = end === -1 ? start : start.slice(0, end);
  return /[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(declaration)?.[2] ?? null;
}

/** ISO-8859-1 exactly as the standard defines it: one byte, one code point (WHATWG's label means windows-1252). */
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'latin1', 'l1', 'iso-ir-100', 'cp819', 'ibm819', 'csisolatin1']);
const ASCII = new Set(['us-ascii', 'ascii', 'iso646-us', 'ansi_x3.4-1968', 'csascii']);

function decodeWith(label: string, bytes: Uint8Array): string {
  const name = label.toLowerCase();
  if (LATIN1.has(name)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (ASCII.has(name)) {
    const at = bytes.findIndex((byte) => byte > 0x7f);
    if (at !== -1) throw invalidBytes(label, bytes, at);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(name, { fatal: true, ignoreBOM: true });
  } catch {
    throw unsupportedEncoding(label);
  }
  if (decoder.encoding === 'windows-1252') return decodeWindows1252(bytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw invalidBytes(label, bytes, decoder.encoding === 'utf-8' ? firstInvalidUtf8(bytes) : -1);
  }
}

/**
 * What windows-1252 puts at 0x80-0x9F (curly quotes, dashes, the euro sign); the five bytes it
 * leaves undefined stay C1 controls, as WHATWG decodes them. Node 20's TextDecoder decodes all of
 * 0x80-0x9F as ISO-8859-1 would, so they are mapped here.
 */
const WINDOWS_1252_C1 = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

function unsupportedEncoding(label: string) {
  return unsupportedMediaType(`This XML file is in the encoding "${label}", which PIM cannot read: save it as UTF-8.`);
}

function invalidBytes(label: string, bytes: Uint8Array, at: number) {
  const where = at === -1 ? '' : ` at byte ${at + 1} (line ${lineAt(bytes, at)})`;
  return badRequest(
    `This XML file is not valid ${label}${where}: save it again as ${label}, or declare the encoding it is really in (<?xml version="1.0" encoding="..."?>).`,
  );
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i += 1) if (bytes[i] === 0x0a) line += 1;
  return line;
}

/** Where the first byte sequence that is not UTF-8 starts (RFC 3629: no overlongs, surrogates or code points past U+10FFFF). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (more === 0) return i;
    let point = lead & (0x3f >> more);
    for (let k = 1; k <= more; k += 1) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      point = (point << 6) | (next & 0x3f);
    }
    const overlong = (more === 2 && point < 0x800) || (more === 3 && point < 0x10000);
    if (overlong || (point >= 0xd800 && point <= 0xdfff) || point > 0x10ffff) return i;
    i += more + 1;
  }
  return -1;
}
