import { badRequest } from '../../platform/errors.js';
import { doctypeEnd } from './sniff.js';

/** Deeper nesting is refused before any parser or reader recurses into it; real layouts nest a few dozen levels. */
export const MAX_XML_DEPTH = 1000;

/**
 * Refuses, before parsing, what XML 1.0 forbids and what would make a parser recurse without
 * end: characters outside XML's Char production (C0 controls other than tab, line feed and carriage
 * return, U+FFFE, U+FFFF, unpaired surrogates), character references to them (`&#0;`, `&#xD800;`),
 * and elements nested more than MAX_XML_DEPTH levels. One pass each, no regular expression.
 */
export function checkXmlText(xml: string): void {
  checkCharacters(xml);
  checkReferencesAndDepth(xml);
}

/** Whether XML 1.0 allows a code point (its Char production). */
export function isXmlChar(point: number): boolean {
  if (point < 0x20) return point === 0x09 || point === 0x0a || point === 0x0d;
  if (point <= 0xd7ff) return true;
  if (point < 0xe000) return false;
  if (point <= 0xfffd) return true;
  return point >= 0x10000 && point <= 0x10ffff;
}

function checkCharacters(xml: string): void {
  for (let i = 0; i < xml.length; i += 1) {
    const code = xml.charCodeAt(i);
    if (code >= 0x20 && code < 0xd800) continue;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = xml.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 1;
        continue;
      }
    }
    if (!isXmlChar(code)) {
      const what = code >= 0xd800 && code <= 0xdfff ? `an unpaired surrogate (${codePoint(code)})` : `the character ${codePoint(code)}`;
      throw badRequest(`This XML file contains ${what}, which XML does not allow, at ${position(xml, i)}: remove it and upload the file again.`);
    }
  }
}

/**
 * Walks the markup: comments, processing instructions, CDATA sections and the DOCTYPE are
 * skipped whole, tags are counted for the depth, and character references are checked where XML
 * reads them (text and attribute values).
 */
function checkReferencesAndDepth(xml: string): void {
  let depth = 0;
  let i = 0;
  while (i < xml.length) {
    const c = xml.charCodeAt(i);
    if (c === AMP) {
      i = checkReference(xml, i);
      continue;
    }
    if (c !== LT) {
      i += 1;
      continue;
    }
    const skipped = skipSpecial(xml, i);
    if (skipped !== null) {
      i = skipped;
      continue;
    }
    const closing = xml.charCodeAt(i + 1) === SLASH;
    if (!closing && !isNameStart(xml.charCodeAt(i + 1))) {
      i += 1; // A stray `<` in text: not a tag, and the parser will say so.
      continue;
    }
    const tag = scanTag(xml, i);
    if (closing) depth -= 1;
    else if (!tag.empty) depth += 1;
    if (depth > MAX_XML_DEPTH) {
      throw badRequest(
        `This XML file nests elements more than ${MAX_XML_DEPTH.toLocaleString('en')} levels deep (at ${position(xml, i)}): PIM reads at most ${MAX_XML_DEPTH.toLocaleString('en')} levels.`,
      );
    }
    i = tag.end;
  }
}

const AMP = 0x26;
const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUOT = 0x22;
const APOS = 0x27;

/** The end of a comment, processing instruction, CDATA section or DOCTYPE starting at `i`; null for a tag. */
function skipSpecial(xml: string, i: number): number | null {
  const past = (terminator: string, from: number) => {
    const at = xml.indexOf(terminator, from);
    return at === -1 ? xml.length : at + terminator.length;
  };
  if (xml.startsWith('<!--', i)) return past('-->', i + 4);
  if (xml.startsWith('<?', i)) return past('?>', i + 2);
  if (xml.startsWith('<![CDATA[', i)) return past(']]>', i + 9);
  if (xml.startsWith('<!', i)) return doctypeEnd(xml, i);
  return null;
}

/**
 * A start or end tag from its `<`: where it ends (past `>`) and whether it is an empty-element
 * tag (`/>`). Attribute values are read for character references.
 */
function scanTag(xml: string, start: number): { end: number; empty: boolean } {
  let last = 0;
  for (let i = start + 1; i < xml.length; ) {
    const c = xml.charCodeAt(i);
    if (c === GT) return { end: i + 1, empty: last === SLASH };
    if (c === QUOT || c === APOS) {
      i = scanAttributeValue(xml, i + 1, c);
      last = c;
      continue;
    }
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) last = c;
    i += 1;
  }
  return { end: xml.length, empty: false };
}

function scanAttributeValue(xml: string, from: number, quote: number): number {
  let i = from;
  while (i < xml.length) {
    const c = xml.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === LT) return i; // Malformed: the parser will say so; do not swallow the next tag.
    i = c === AMP ? checkReference(xml, i) : i + 1;
  }
  return i;
}

/** Checks the reference at `&` (only character references can name a forbidden character) and returns where to go on. */
function checkReference(xml: string, amp: number): number {
  if (xml.charCodeAt(amp + 1) !== 0x23) return amp + 1;
  const hex = xml.charCodeAt(amp + 2) === 0x78;
  const start = amp + (hex ? 3 : 2);
  let i = start;
  let point = 0;
  for (let digit = 0; i < xml.length && (digit = digitValue(xml.charCodeAt(i), hex)) !== -1; i += 1) {
    // Capped past the last code point, so a long run of digits cannot overflow into a valid one.
    point = Math.min(point * (hex ? 16 : 10) + digit, 0x110000);
  }
  // Not a complete reference: the parser refuses it with its own words.
  if (i === start || xml.charCodeAt(i) !== 0x3b) return i;
  if (!isXmlChar(point)) {
    const reference = xml.slice(amp, Math.min(i + 1, amp + 24));
    const what = point > 0x10ffff ? 'beyond U+10FFFF' : codePoint(point);
    throw badRequest(`This XML file refers to a character XML does not allow, ${reference} (${what}), at ${position(xml, amp)}: remove it and upload the file again.`);
  }
  return i + 1;
}

/** Letters, `_`, `:` and anything beyond ASCII (XML's NameStartChar, loosely: the parser checks names). */
function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c > 0x7f;
}

function digitValue(c: number, hex: boolean): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (!hex) return -1;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

function codePoint(point: number): string {
  return `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "line L, column C" of the UTF-16 offset, for messages (counted only when refusing). */
function position(xml: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = xml.indexOf('\n'); at !== -1 && at < offset; at = xml.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
