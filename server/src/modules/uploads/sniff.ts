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
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<?xml') || /^<[A-Za-z_!]/.test(text)) return { kind: 'xml', mediaType: 'application/xml' };
  return null;
}

/** Which XML dialect a file is, from its root element (a namespace alone can mislead: kant's ALTO declares PAGE's). */
export type XmlDialect = 'page' | 'alto' | 'hocr';

export function xmlDialect(xml: string): XmlDialect | null {
  const root = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*<(?:[\w.-]+:)?([\w.-]+)/.exec(xml)?.[1];
  if (root === 'PcGts') return 'page';
  if (root === 'alto') return 'alto';
  // Plain XHTML is not hOCR: it must carry hOCR's page class or metadata.
  if (root === 'html' && /\bocr_page\b|["']ocr-(?:system|capabilities)["']/.test(xml)) return 'hocr';
  return null;
}
