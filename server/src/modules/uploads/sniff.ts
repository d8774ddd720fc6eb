/** What an upload is, decided from its first bytes: the file name and the browser's type lie. */
export type SniffedKind =
  | { kind: 'image'; mediaType: 'image/jpeg' | 'image/png' | 'image/tiff' | 'image/webp' }
  | { kind: 'pdf'; mediaType: 'application/pdf' }
  | { kind: 'xml'; mediaType: 'application/xml' };

/** Enough bytes for every signature below, and for a BOM plus leading white space before `<`. */
export const SNIFF_BYTES = 64;

const startsWith = (head: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);

export function sniff(head: Buffer): SniffedKind | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'image', mediaType: 'image/jpeg' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mediaType: 'image/png' };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) {
    return { kind: 'image', mediaType: 'image/tiff' };
  }
  // BigTIFF (version 43) too: large scans come as BigTIFF and libvips reads them.
  if (startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])) {
    return { kind: 'image', mediaType: 'image/tiff' };
  }
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') {
    return { kind: 'image', mediaType: 'image/webp' };
  }
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return { kind: 'pdf', mediaType: 'application/pdf' };
  const text = headText(head).replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<?xml') || /^<[A-Za-z_!]/.test(text)) return { kind: 'xml', mediaType: 'application/xml' };
  return null;
}

/** The first bytes as text: UTF-16 (by its byte order mark, or by `<` in either byte order), else as UTF-8. */
function headText(head: Buffer): string {
  const utf16 = (order: 'le' | 'be', skip: number) => new TextDecoder(`utf-16${order}`, { ignoreBOM: true }).decode(head.subarray(skip));
  if (startsWith(head, [0xff, 0xfe])) return utf16('le', 2);
  if (startsWith(head, [0xfe, 0xff])) return utf16('be', 2);
  if (startsWith(head, [0x3c, 0x00])) return utf16('le', 0);
  if (startsWith(head, [0x00, 0x3c])) return utf16('be', 0);
  return head.toString('utf8');
}

/** Which XML dialect a file is, from its root element (a namespace alone can mislead: kant's ALTO declares PAGE's). */
export type XmlDialect = 'page' | 'alto' | 'hocr';

export function xmlDialect(xml: string): XmlDialect | null {
  const root = readProlog(xml).root;
  if (root === 'PcGts') return 'page';
  if (root === 'alto') return 'alto';
  // Plain XHTML is not hOCR: it must carry hOCR's page class or metadata.
  if (root === 'html' && /\bocr_page\b|["']ocr-(?:system|capabilities)["']/.test(xml)) return 'hocr';
  return null;
}

export interface Prolog {
  /** The root element's local name (its prefix dropped); null when the prolog does not end in an element. */
  root: string | null;
  /** Where the DOCTYPE declaration is, when there is one. */
  doctype: { start: number; end: number } | null;
}

/**
 * Reads past the prolog (white space, the XML declaration, processing instructions, comments, a
 * DOCTYPE with its internal subset) to the root element's name. A linear scan: every construct is
 * passed once, so no input can make it backtrack.
 */
export function readProlog(xml: string): Prolog {
  let doctype: Prolog['doctype'] = null;
  let i = 0;
  for (;;) {
    while (i < xml.length && isSpace(xml.charCodeAt(i))) i += 1;
    let next = -1;
    if (xml.startsWith('<?', i)) next = after(xml, '?>', i + 2);
    else if (xml.startsWith('<!--', i)) next = after(xml, '-->', i + 4);
    else if (xml.startsWith('<!DOCTYPE', i) && !doctype) {
      next = doctypeEnd(xml, i);
      doctype = { start: i, end: next };
    } else break;
    if (next === -1) return { root: null, doctype };
    i = next;
  }
  if (xml.charCodeAt(i) !== 0x3c) return { root: null, doctype };
  let end = i + 1;
  while (end < xml.length && !isSpace(xml.charCodeAt(end)) && !'/>'.includes(xml[end]!)) end += 1;
  const name = xml.slice(i + 1, end);
  return { root: name.slice(name.lastIndexOf(':') + 1) || null, doctype };
}

/** Past the next `terminator` from `from`; -1 when there is none. */
function after(xml: string, terminator: string, from: number): number {
  const at = xml.indexOf(terminator, from);
  return at === -1 ? -1 : at + terminator.length;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The end (past `>`) of a `<!...>` declaration such as a DOCTYPE: quoted strings and an internal
 * subset in brackets (with its own comments and declarations) may hold `>`.
 */
export function doctypeEnd(xml: string, start: number): number {
  let subset = false;
  for (let i = start + 2; i < xml.length; ) {
    const c = xml.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      const close = xml.indexOf(String.fromCharCode(c), i + 1);
      if (close === -1) return xml.length;
      i = close + 1;
    } else if (subset && xml.startsWith('<!--', i)) {
      const close = xml.indexOf('-->', i + 4);
      if (close === -1) return xml.length;
      i = close + 3;
    } else {
      if (c === 0x5b) subset = true;
      else if (c === 0x5d) subset = false;
      else if (c === 0x3e && !subset) return i + 1;
      i += 1;
    }
  }
  return xml.length;
}
