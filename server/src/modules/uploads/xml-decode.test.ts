import { describe, expect, it } from 'vitest';
import { decodeXml, firstInvalidUtf8 } from './xml-decode.js';

const declared = (encoding: string, body: string) => `<?xml version="1.0" encoding="${encoding}"?>\n<a>${body}</a>`;
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('decoding uploaded XML', () => {
  it('reads UTF-8 with and without a BOM, and without a declaration', () => {
    expect(decodeXml(Buffer.from(declared('UTF-8', 'café ⁊ 𝔄')))).toBe(declared('UTF-8', 'café ⁊ 𝔄'));
    expect(decodeXml(Buffer.from('\uFEFF<a>é</a>'))).toBe('<a>é</a>');
    expect(decodeXml(Buffer.from('<?xml version="1.0"?><a>é</a>'))).toBe('<?xml version="1.0"?><a>é</a>');
  });

  it('reads UTF-16 by its BOM, or by "<?" in either byte order', () => {
    const text = declared('UTF-16', 'café 𝔄');
    expect(decodeXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    expect(decodeXml(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]))).toBe(text);
    expect(decodeXml(Buffer.from(text, 'utf16le'))).toBe(text);
    expect(decodeXml(utf16be(text))).toBe(text);
  });

  it('honours the declared single-byte encodings: ISO-8859-1 exactly, windows-1252, ISO-8859-15, US-ASCII', () => {
    expect(decodeXml(Buffer.from(declared('ISO-8859-1', 'café \x80'), 'latin1'))).toBe(declared('ISO-8859-1', 'café \x80'));
    expect(decodeXml(Buffer.from(declared('latin1', 'é'), 'latin1'))).toBe(declared('latin1', 'é'));
    expect(decodeXml(Buffer.from(declared('windows-1252', '\x93quoted\x94 \x80 \x96 \x81\x9f'), 'latin1'))).toBe(declared('windows-1252', '“quoted” € – \x81Ÿ'));
    expect(decodeXml(Buffer.from(declared('cp1252', '\x91'), 'latin1'))).toBe(declared('cp1252', '‘'));
    expect(decodeXml(Buffer.from(declared('ISO-8859-15', '\xa4'), 'latin1'))).toBe(declared('ISO-8859-15', '€'));
    expect(decodeXml(Buffer.from(declared('windows-1250', '\x8a'), 'latin1'))).toBe(declared('windows-1250', 'Š'));
    expect(decodeXml(Buffer.from(`<?xml version='1.0' encoding='us-ascii' ?><a>plain</a>`))).toBe(`<?xml version='1.0' encoding='us-ascii' ?><a>plain</a>`);
  });

  it('refuses an encoding it cannot read, naming it', () => {
    expect(() => decodeXml(Buffer.from(declared('x-klingon', 'a')))).toThrow(
      expect.objectContaining({ status: 415, message: 'This XML file is in the encoding "x-klingon", which PIM cannot read: save it as UTF-8.' }),
    );
    expect(() => decodeXml(Buffer.from([0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x3c]))).toThrow(expect.objectContaining({ status: 415, message: expect.stringContaining('"UTF-32"') }));
    expect(() => decodeXml(Buffer.from([0x4c, 0x6f, 0xa7, 0x94]))).toThrow(expect.objectContaining({ status: 415, message: expect.stringContaining('"EBCDIC"') }));
  });

  it('refuses bytes that are not valid in their encoding instead of turning them into U+FFFD', () => {
    const latin1InUtf8 = Buffer.from(declared('UTF-8', 'line\ncaf\xe9'), 'latin1');
    expect(() => decodeXml(latin1InUtf8)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^This XML file is not valid UTF-8 at byte 51 \(line 3\): save it again as UTF-8/) }),
    );
    expect(() => decodeXml(Buffer.from('<a>caf\xe9</a>', 'latin1'))).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('not valid UTF-8 at byte 7 (line 1)') }));
    expect(() => decodeXml(Buffer.from(declared('US-ASCII', 'caf\xe9'), 'latin1'))).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('not valid US-ASCII at byte') }));
    // An unpaired surrogate in UTF-16.
    expect(() => decodeXml(Buffer.from([0xff, 0xfe, 0x3c, 0, 0x61, 0, 0x3e, 0, 0x00, 0xd8, 0x61, 0]))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringContaining('not valid UTF-16LE') }),
    );
    expect(() => decodeXml(Buffer.from(declared('UTF-16', 'a')))).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('its bytes are not UTF-16') }));
  });

  it('finds the first byte that is not UTF-8: bad leads, cut sequences, overlongs, surrogates, past U+10FFFF', () => {
    expect(firstInvalidUtf8(Buffer.from('a é ⁊ 𝔄'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc3]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });
});
