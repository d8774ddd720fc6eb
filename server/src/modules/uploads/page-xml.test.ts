import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts } from '../../test-support/upload-files.js';
import { XML_WITH_DTD } from './safe-xml.js';
import type { PageRegion } from './page-xml.js';
import { fixturePath } from '../../test-support/fixtures.js';

const FIXTURES = fixturePath('page');
const IFORAL = path.join(FIXTURES, 'iforal');
const KANT = path.join(FIXTURES, 'kant1784');
const PAGE_NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15';

/** A minimal PAGE 2013 file with the given lines. */
function pageXml(imageFilename: string, lines: string[], prolog = ''): Buffer {
  const body = lines
    .map((text, i) => `<TextLine id="l${i}"><Coords points="0,0 10,0 10,10"/><TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`)
    .join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>${prolog}<PcGts xmlns="${PAGE_NS}"><Metadata><Creator>Test</Creator></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40"><TextRegion id="r1" type="paragraph">` +
      `<Coords points="0,0 60,0 60,40"/>${body}</TextRegion></Page></PcGts>`,
  );
}

describe('uploads: PAGE XML', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const rowCounts = () => uploadRowCounts(t.app);

  it('turns a PAGE file into a transcription of the image it names, text exact', async () => {
    const setId = await createSet(t.app, owner.auth);
    const img = await upload(t.app, owner.auth, setId, [{ fileName: 'scan 7.png', bytes: await testImage('png', 60, 40) }]);
    const imageId = img.json.documentImages[0].uuid;
    const res = await upload(t.app, owner.auth, setId, [
      { fileName: 'scan 7.xml', bytes: pageXml('images/scan 7.png', ['A &amp; B &lt;c&gt; &#x204A; &#8364;', ' spaced  ']) },
    ]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ kind: 'xml', documentImages: [{ uuid: imageId, name: 'scan 7' }], message: 'scan 7.xml: 2 lines added to the image scan 7.' });
    const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).toMatchObject({ uuid: res.json.transcriptions[0], format: 'page', transcriber: 'Test', version: '2013', language: null, cleanText: 'A & B <c> ⁊ €\n spaced  ' });
    const image = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}`, headers: owner.auth });
    expect(image.json).toMatchObject({ types: ['page'], linesCount: 2, htrText: 'A & B <c> ⁊ €\n spaced  ' });
    const file = await call(t.app, { method: 'GET', url: new URL(image.json.layoutXML).pathname, headers: owner.auth });
    expect(file.status).toBe(200);
    expect(file.res.headers['content-disposition']).toContain('filename="scan 7.xml"');
  });

  it('keeps the PAGE language as the transcription language: Page@primaryLanguage, else what most regions declare', async () => {
    const setId = await createSet(t.app, owner.auth);
    const img = await upload(t.app, owner.auth, setId, [{ fileName: 'lang.png', bytes: await testImage('png', 60, 40) }]);
    const imageId = img.json.documentImages[0].uuid;
    const regions = (languages: string[]) =>
      languages.map((l, i) => `<TextRegion id="r${i}" primaryLanguage="${l}"><Coords points="0,0 9,0 9,9"/></TextRegion>`).join('');
    const files = [
      `<Page imageFilename="lang.png" primaryLanguage="Old Church Slavonic">${regions(['Latin'])}</Page>`,
      `<Page imageFilename="lang.png">${regions(['Latin', 'German', 'German'])}</Page>`,
    ];
    for (const page of files) {
      const bytes = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="${PAGE_NS}"><Metadata><Creator>T</Creator></Metadata>${page}</PcGts>`);
      expect((await upload(t.app, owner.auth, setId, [{ fileName: 'lang.xml', bytes }])).status).toBe(200);
    }
    const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
    expect(list.json.map((tr: { language: string | null }) => tr.language)).toEqual(['Old Church Slavonic', 'German']);
  });

  it('refuses a DTD, malformed XML and XML whose image is not in the set, storing no rows', async () => {
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'p1.png', bytes: await testImage('png', 60, 40) }]);
    const before = await rowCounts();
    const cases = [
      { bytes: pageXml('p1.png', ['&e;'], '<!DOCTYPE PcGts [<!ENTITY e "boom">]>'), message: XML_WITH_DTD },
      { bytes: pageXml('p1.png', ['&nbsp;']), message: XML_WITH_DTD },
      { bytes: Buffer.from(`<PcGts xmlns="${PAGE_NS}"><Page imageFilename="p1.png">`), message: 'This XML file is not well-formed' },
      { bytes: pageXml('p2.png', ['x']), message: 'This XML belongs to the image "p2.png", which is not in this image set: upload the image first.' },
    ];
    for (const c of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'x.xml', bytes: c.bytes }]);
      expect(res.status, c.message).toBe(400);
      expect(res.json.message).toContain(c.message);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.skipIf(!fs.existsSync(IFORAL))('imports the iforal pages: sizes and every line text exactly as expected_lines.tsv', async () => {
    const expected = fs
      .readFileSync(path.join(IFORAL, 'expected_lines.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string, string]);
    const folders = [...new Set(expected.map(([file]) => path.dirname(file)))];
    for (const folder of folders) {
      // Each charter in its own set: their pages share names (1.jpg, 2.jpg, ...).
      const setId = await createSet(t.app, owner.auth, folder);
      const xmlFiles = fs.readdirSync(path.join(IFORAL, folder)).filter((f) => f.endsWith('.xml')).sort();
      for (const xmlName of xmlFiles) {
        const xml = fs.readFileSync(path.join(IFORAL, folder, xmlName));
        const jpgName = xmlName.replace(/\.xml$/, '.jpg');
        const img = await upload(t.app, owner.auth, setId, [{ fileName: jpgName, bytes: fs.readFileSync(path.join(IFORAL, folder, jpgName)) }]);
        expect(img.status).toBe(200);
        const imported = await upload(t.app, owner.auth, setId, [{ fileName: xmlName, bytes: xml }]);
        expect(imported.status, JSON.stringify(imported.json)).toBe(200);

        const imageId = img.json.documentImages[0].uuid;
        const image = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}`, headers: owner.auth });
        const [, width, height] = /imageWidth="(\d+)" imageHeight="(\d+)"/.exec(xml.toString('utf8'))!;
        expect([image.json.width, image.json.height]).toEqual([Number(width), Number(height)]);

        const row = await t.app.database.db
          .selectFrom('transcription')
          .select(['layout', 'clean_text'])
          .where('id', '=', imported.json.transcriptions[0])
          .executeTakeFirstOrThrow();
        const lines = (row.layout as { regions: PageRegion[] }).regions.flatMap((r) => r.lines);
        const want = expected.filter(([file]) => file === `${folder}/${xmlName}`);
        expect(lines.map((l) => [l.id, l.text])).toEqual(want.map(([, id, text]) => [id, text]));
        expect(lines.every((l) => l.coords && l.baseline)).toBe(true);
        expect(row.clean_text).toBe(want.map(([, , text]) => text).join('\n'));
      }
    }
  });

  it.skipIf(!fs.existsSync(KANT))('imports the kant1784 TIFF pages and their PAGE files (words and glyphs below the lines)', async () => {
    const expected = fs
      .readFileSync(path.join(KANT, 'expected_lines_from_PAGE.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string, string]);
    const setId = await createSet(t.app, owner.auth, 'Kant');
    for (const n of ['0017', '0020']) {
      const tif = await upload(t.app, owner.auth, setId, [
        { fileName: `INPUT_${n}.tif`, bytes: fs.readFileSync(path.join(KANT, 'data/OCR-D-IMG', `INPUT_${n}.tif`)) },
      ]);
      expect(tif.status, JSON.stringify(tif.json)).toBe(200);
      const xmlPath = `data/OCR-D-GT-PAGE/PAGE_${n}_PAGE.xml`;
      const xml = fs.readFileSync(path.join(KANT, xmlPath));
      const imported = await upload(t.app, owner.auth, setId, [{ fileName: path.basename(xmlPath), bytes: xml }]);
      expect(imported.status, JSON.stringify(imported.json)).toBe(200);
      expect(imported.json.documentImages[0].uuid).toBe(tif.json.documentImages[0].uuid);
      const image = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${tif.json.documentImages[0].uuid}`, headers: owner.auth });
      const text = xml.toString('utf8');
      expect([image.json.width, image.json.height]).toEqual([
        Number(/imageWidth="(\d+)"/.exec(text)![1]),
        Number(/imageHeight="(\d+)"/.exec(text)![1]),
      ]);
      const row = await t.app.database.db
        .selectFrom('transcription')
        .select('layout')
        .where('id', '=', imported.json.transcriptions[0])
        .executeTakeFirstOrThrow();
      const lines = (row.layout as { regions: PageRegion[] }).regions.flatMap((r) => r.lines);
      const want = expected.filter(([file]) => file === xmlPath);
      expect(lines.map((l) => [l.id, l.text])).toEqual(want.map(([, id, text]) => [id, text]));
      // The file names no Page language; its lines say German.
      const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imported.json.documentImages[0].uuid}/transcriptions`, headers: owner.auth });
      expect(list.json.map((tr: { language: string | null }) => tr.language)).toEqual(['German']);
    }
  });
});
