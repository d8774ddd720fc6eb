import { describe, expect, it } from 'vitest';
import { testFont, withBadHeadMagic } from '../../test-support/font-files.js';
import { FONT_COLLECTION, fontFlavour, fontName, inspectFont, NOT_A_FONT, WEB_FONT } from './sfnt.js';

const readerOf = (bytes: Buffer) => async (offset: number, length: number) => bytes.subarray(offset, offset + length);
const inspect = (bytes: Buffer) => inspectFont(readerOf(bytes), bytes.length);

describe('sfnt: one TrueType or OpenType font', () => {
  it('reads the flavour and the full name of TrueType and OpenType (CFF) fonts', async () => {
    expect(await inspect(testFont({ family: 'Junicode', fullName: 'Junicode Bold' }))).toEqual({
      flavour: { type: 'TrueType', mediaType: 'font/ttf' },
      name: 'Junicode Bold',
    });
    expect(await inspect(testFont({ flavour: 'OpenType', family: 'Ævum Sans', fullName: 'Ævum Sans Regular' }))).toEqual({
      flavour: { type: 'OpenType', mediaType: 'font/otf' },
      name: 'Ævum Sans Regular',
    });
  });

  it('accepts an empty table whose offset is 0, as some font tools write it', async () => {
    const font = testFont();
    // testFont's glyf table is empty; its record is the second (tags sorted: cmap, glyf, head, ...).
    const glyf = 12 + 16 * 1;
    expect(font.subarray(glyf, glyf + 4).toString('latin1')).toBe('glyf');
    expect(font.readUInt32BE(glyf + 12)).toBe(0);
    font.writeUInt32BE(0, glyf + 8);
    expect((await inspect(font)).flavour.type).toBe('TrueType');
  });

  it("accepts Apple's 'true' version tag as TrueType", async () => {
    const font = testFont();
    font.write('true', 0, 'latin1');
    expect((await inspect(font)).flavour.type).toBe('TrueType');
  });

  it('refuses web fonts, collections and other files from their first bytes with 415', () => {
    for (const [head, message] of [
      ['wOFF\x00\x01\x00\x00', WEB_FONT],
      ['wOF2\x00\x01\x00\x00', WEB_FONT],
      ['ttcf\x00\x01\x00\x00', FONT_COLLECTION],
      ['%PDF-1.7', NOT_A_FONT],
      ['\x89PNG\r\n\x1a\n', NOT_A_FONT],
      ['', NOT_A_FONT],
    ] as const) {
      expect(() => fontFlavour(Buffer.from(head, 'latin1')), head).toThrow(expect.objectContaining({ status: 415, message }));
    }
  });

  it('refuses damaged fonts with 400 and says what is wrong', async () => {
    const font = testFont();
    const tooManyTables = Buffer.from(font);
    tooManyTables.writeUInt16BE(500, 4);
    const tableOutside = Buffer.from(font);
    tableOutside.writeUInt32BE(font.length, 12 + 8);
    const cases: [string, Buffer, string][] = [
      ['cut in the header', font.subarray(0, 8), 'it ends inside its header'],
      ['no tables', Buffer.concat([font.subarray(0, 4), Buffer.alloc(8)]), 'it claims 0 tables'],
      ['too many tables', tooManyTables, 'it claims 500 tables'],
      ['cut in the directory', font.subarray(0, 40), 'it ends inside its table directory'],
      ['a table outside the file', tableOutside, "its 'cmap' table lies outside the file"],
      ['cut short', font.subarray(0, font.length - 200), 'lies outside the file'],
      ['no glyf and loca', testFont({ without: ['glyf', 'loca'] }), "it lacks the required 'glyf', 'loca' tables"],
      ['no CFF', testFont({ flavour: 'OpenType', without: ['CFF '] }), "it lacks the required 'CFF' table"],
      ['no name', testFont({ without: ['name'] }), "it lacks the required 'name' table"],
      ['bad head magic', withBadHeadMagic(font), "its 'head' table has the wrong magic number"],
    ];
    for (const [label, bytes, why] of cases) {
      await expect(inspect(bytes), label).rejects.toMatchObject({ status: 400, message: expect.stringContaining(why) });
    }
  });

  it('takes the name from the best record and skips what it cannot decode', () => {
    const u16 = (...ns: number[]) => Buffer.concat(ns.map((n) => Buffer.from([n >> 8, n & 0xff])));
    const names = (records: [number, number, number, number, Buffer][]) => {
      let offset = 0;
      const head = records.map(([p, e, l, id, bytes]) => {
        const r = u16(p, e, l, id, bytes.length, offset);
        offset += bytes.length;
        return r;
      });
      return Buffer.concat([u16(0, records.length, 6 + 12 * records.length), ...head, ...records.map((r) => r[4])]);
    };
    const be = (s: string) => Buffer.from(s, 'utf16le').swap16();
    expect(
      fontName(
        names([
          [1, 0, 0, 1, Buffer.from('Mac Family')],
          [3, 1, 0x407, 4, be('Deutsch Voll')],
          [3, 1, 0x409, 1, be('Family')],
          [3, 1, 0x409, 4, be('Full Name')],
        ]),
      ),
    ).toBe('Full Name');
    expect(fontName(names([[1, 0, 0, 1, Buffer.from('Only Mac')]]))).toBe('Only Mac');
    expect(fontName(names([[1, 0, 0, 4, Buffer.from([0x8a, 0x41])], [0, 3, 0, 1, be('Unicode')]]))).toBe('Unicode');
    expect(fontName(names([[3, 1, 0x409, 2, be('Regular')]]))).toBeNull();
    expect(fontName(Buffer.alloc(3))).toBeNull();
  });
});
