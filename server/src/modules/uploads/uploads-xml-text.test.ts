import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts } from '../../test-support/upload-files.js';
import { altoXml, nestedPageXml, pageLine, pageXml } from '../../test-support/xml-files.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf16leWithBom = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const declaration = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>\n`;

describe('uploads: the characters and structure of uploaded XML', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'p1.png', bytes: await testImage('png', 60, 40) }]);
  });
  afterAll(() => t.close());

  const imported = async (fileName: string, bytes: Buffer) => {
    const res = await upload(t.app, owner.auth, setId, [{ fileName, bytes }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return t.app.database.db
      .selectFrom('transcription')
      .select(['clean_text', 'format'])
      .where('id', '=', res.json.transcriptions[0])
      .executeTakeFirstOrThrow();
  };

  it('honours the declared encoding: ISO-8859-1 PAGE and ALTO, windows-1252, UTF-16 with a BOM', async () => {
    const page = await imported('latin1.xml', latin1(pageXml('p1.png', pageLine('l1', 'café Ærø'), { declaration: declaration('ISO-8859-1') })));
    expect(page).toEqual({ clean_text: 'café Ærø', format: 'page' });
    const alto = await imported('latin1-alto.xml', latin1(altoXml('p1.png', ['café', 'naïve'], { declaration: declaration('iso-8859-1') })));
    expect(alto).toEqual({ clean_text: 'café naïve', format: 'alto' });
    // 0x93 and 0x94 are curly quotes in windows-1252 (and invisible C1 controls in ISO-8859-1).
    const quotes = await imported('cp1252.xml', latin1(pageXml('p1.png', pageLine('l1', '\x93Foral\x94 \x96 \x80 5'), { declaration: declaration('windows-1252') })));
    expect(quotes.clean_text).toBe('“Foral” – € 5');
    const utf16 = await imported('utf16.xml', utf16leWithBom(pageXml('p1.png', pageLine('l1', 'café 𝔄 ⁊'), { declaration: declaration('UTF-16') })));
    expect(utf16.clean_text).toBe('café 𝔄 ⁊');
  });

  it('refuses an unknown encoding and bytes invalid in the declared one, storing nothing', async () => {
    const before = await uploadRowCounts(t.app);
    const unknown = await upload(t.app, owner.auth, setId, [
      { fileName: 'x.xml', bytes: Buffer.from(pageXml('p1.png', pageLine('l1', 'x'), { declaration: declaration('x-mac-klingon') })) },
    ]);
    expect(unknown.status).toBe(415);
    expect(unknown.json.message).toBe('This XML file is in the encoding "x-mac-klingon", which PIM cannot read: save it as UTF-8.');
    // Latin-1 bytes in a file that says (or defaults to) UTF-8 were stored as U+FFFD before.
    for (const bytes of [latin1(pageXml('p1.png', pageLine('l1', 'café'))), latin1(pageXml('p1.png', pageLine('l1', 'café'), { declaration: '' }))]) {
      const invalid = await upload(t.app, owner.auth, setId, [{ fileName: 'x.xml', bytes }]);
      expect(invalid.status).toBe(400);
      expect(invalid.json.message).toMatch(/^This XML file is not valid UTF-8 at byte \d+ \(line \d\): save it again as UTF-8, or declare the encoding/);
    }
    expect(await uploadRowCounts(t.app)).toEqual(before);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  });

  it('refuses characters XML forbids, as characters or as references, with 400 and where they are', async () => {
    const before = await uploadRowCounts(t.app);
    const cases: [string, Buffer, string][] = [
      ['NUL', Buffer.from(pageXml('p1.png', pageLine('l1', 'a\u0000b'))), 'This XML file contains the character U+0000, which XML does not allow, at line 1'],
      ['escape', Buffer.from(pageXml('p1.png', pageLine('l1', 'a\u001bb'))), 'the character U+001B'],
      ['U+FFFF', Buffer.from(pageXml('p1.png', pageLine('l1', '\uffff'))), 'the character U+FFFF'],
      ['&#0;', Buffer.from(pageXml('p1.png', pageLine('l1', 'a&#0;b'))), 'This XML file refers to a character XML does not allow, &#0; (U+0000), at line 1'],
      ['&#x1;', Buffer.from(pageXml('p1.png', pageLine('l1', '&#x1;'))), '&#x1; (U+0001)'],
      ['&#xD800;', Buffer.from(pageXml('p1.png', pageLine('l1', '&#xD800;'))), '&#xD800; (U+D800)'],
      ['ALTO attribute', Buffer.from(altoXml('p1.png', ['a&#xFFFE;'])), '&#xFFFE; (U+FFFE)'],
      ['lone surrogate in UTF-16', Buffer.from([0xff, 0xfe, ...Buffer.from('<PcGts>', 'utf16le'), 0x00, 0xd8, ...Buffer.from('</PcGts>', 'utf16le')]), 'not valid UTF-16LE'],
      ['lone surrogate in UTF-8', Buffer.concat([Buffer.from('<PcGts>'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('</PcGts>')]), 'not valid UTF-8 at byte 8'],
    ];
    for (const [label, bytes, message] of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'bad.xml', bytes }]);
      expect(res.status, label).toBe(400);
      expect(res.json.message, label).toContain(message);
    }
    expect(await uploadRowCounts(t.app)).toEqual(before);
  });

  it('answers a pathological prolog within 100 ms', async () => {
    // Seconds with the old root-sniffing expression (see sniff.test.ts). The first upload starts
    // the thread; the fastest of ten then measures the server, not a busy machine's worst moments.
    const bytes = Buffer.from(`<?xml version="1.0"?>${'<?a?>'.repeat(28)}!`);
    const warm = await upload(t.app, owner.auth, setId, [{ fileName: 'warm.xml', bytes }]);
    expect(warm.status).toBe(400);
    const times: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const start = performance.now();
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'prolog.xml', bytes }]);
      times.push(performance.now() - start);
      expect(res.json.message).toContain('This XML file is not well-formed');
    }
    expect(Math.min(...times)).toBeLessThan(100);
  });

  it('refuses elements nested more than 1,000 levels with 400 before parsing, and reads 1,000 levels', async () => {
    const deepest = await imported('deep.xml', Buffer.from(nestedPageXml('p1.png', 1000)));
    expect(deepest.clean_text).toBe('Deep');
    for (const depth of [1001, 100_000]) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'deeper.xml', bytes: Buffer.from(nestedPageXml('p1.png', depth)) }]);
      expect(res.status, String(depth)).toBe(400);
      expect(res.json.message).toMatch(/^This XML file nests elements more than 1,000 levels deep \(at line 1, column \d+\): PIM reads at most 1,000 levels\.$/);
    }
  });
});
