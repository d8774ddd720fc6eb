import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts } from '../../test-support/upload-files.js';
import type { LayoutRegion } from './alto-xml.js';
import { XML_WITH_DTD } from './safe-xml.js';
import { UNKNOWN_ALTO_IMAGE } from './service.js';
import { fixturePath } from '../../test-support/fixtures.js';

const KANT = fixturePath('page', 'kant1784');
if (!fs.existsSync(KANT)) console.warn(`Skipping the kant1784 ALTO conformance test: ${KANT} is absent.`);

/** A small ALTO file of the given version; `description` goes inside Description. */
function alto(version: 2 | 3 | 4, description: string, page = '', prolog = ''): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>${prolog}<alto xmlns="http://www.loc.gov/standards/alto/ns-v${version}#">` +
      `<Description>${description}<OCRProcessing ID="p"><ocrProcessingStep><processingSoftware><softwareName>TestOCR</softwareName>` +
      `</processingSoftware></ocrProcessingStep></OCRProcessing></Description><Layout>${page || defaultPage()}</Layout></alto>`,
  );
}

function defaultPage(width = 60, height = 40, unit = 1): string {
  const n = (v: number) => v * unit;
  return (
    `<Page ID="p1" WIDTH="${n(width)}" HEIGHT="${n(height)}"><PrintSpace><ComposedBlock ID="c1"><TextBlock ID="b1" HPOS="${n(1)}" VPOS="${n(2)}" WIDTH="${n(50)}" HEIGHT="${n(30)}">` +
    `<TextLine ID="l1" HPOS="${n(2)}" VPOS="${n(3)}" WIDTH="${n(40)}" HEIGHT="${n(10)}" BASELINE="${n(12)}">` +
    `<String ID="s1" CONTENT="A&amp;B" WC="0.9" HPOS="${n(2)}" VPOS="${n(3)}" WIDTH="${n(10)}" HEIGHT="${n(10)}"/><SP/>` +
    `<String CONTENT="&#x204A;&#8364;"/><HYP CONTENT="¬"/></TextLine>` +
    `<TextLine ID="l2"><String CONTENT="zwei"/><SP/><String CONTENT="Wörter"/></TextLine></TextBlock></ComposedBlock>` +
    `<TextBlock ID="b2"><TextLine ID="l3"><String CONTENT="drei"/></TextLine></TextBlock></PrintSpace></Page>`
  );
}

const fileName = (name: string) => `<sourceImageInformation><fileName>${name}</fileName></sourceImageInformation>`;

describe('uploads: ALTO XML', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const rowCounts = () => uploadRowCounts(t.app);
  const layoutOf = async (id: string) =>
    (await db().selectFrom('transcription').select(['layout', 'clean_text', 'format', 'version', 'transcriber']).where('id', '=', id).executeTakeFirstOrThrow());

  it.each([2, 3, 4] as const)('imports ALTO v%i: words joined by spaces, HYP kept, rectangles as points', async (version) => {
    const setId = await createSet(t.app, owner.auth);
    const img = await upload(t.app, owner.auth, setId, [{ fileName: 'scan 7.png', bytes: await testImage('png', 60, 40) }]);
    const imageId = img.json.documentImages[0].uuid;
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'other.xml', bytes: alto(version, `<MeasurementUnit>pixel</MeasurementUnit>${fileName('C:\\scans\\scan 7.png')}`) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ kind: 'xml', documentImages: [{ uuid: imageId }], message: 'other.xml: 3 lines added to the image scan 7.' });
    const row = await layoutOf(res.json.transcriptions[0]);
    expect(row).toMatchObject({ format: 'alto', version: String(version), transcriber: 'TestOCR', clean_text: 'A&B ⁊€¬\nzwei Wörter\ndrei' });
    const layout = row.layout as { page: unknown; regions: LayoutRegion[] };
    expect(layout.page).toEqual({ imageFilename: 'C:\\scans\\scan 7.png', imageWidth: 60, imageHeight: 40 });
    expect(layout.regions.map((r) => [r.id, r.lines.length])).toEqual([['b1', 2], ['b2', 1]]);
    expect(layout.regions[0]!.coords).toBe('1,2 51,2 51,32 1,32');
    expect(layout.regions[0]!.lines[0]).toMatchObject({ id: 'l1', coords: '2,3 42,3 42,13 2,13', baseline: '2,12 42,12', text: 'A&B ⁊€¬' });
    expect(layout.regions[0]!.lines[0]!.words[0]).toEqual({ id: 's1', coords: '2,3 12,3 12,13 2,13', text: 'A&B', confidence: 0.9 });
    const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
    expect(list.json).toMatchObject([{ format: 'alto', cleanText: 'A&B ⁊€¬\nzwei Wörter\ndrei' }]);
  });

  it('converts mm10 coordinates with the image size over the Page size', async () => {
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'mm.png', bytes: await testImage('png', 120, 80) }]);
    // The Page is 60 x 40 "units" of 10: 600 x 400 mm10, shown by an image twice as large as 60 x 40.
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'mm.xml', bytes: alto(4, '<MeasurementUnit>mm10</MeasurementUnit>', defaultPage(60, 40, 10)) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const layout = (await layoutOf(res.json.transcriptions[0])).layout as { page: unknown; regions: LayoutRegion[] };
    expect(layout.page).toEqual({ imageFilename: null, imageWidth: 120, imageHeight: 80 });
    expect(layout.regions[0]!.lines[0]).toMatchObject({ coords: '4,6 84,6 84,26 4,26', baseline: '4,24 84,24' });
  });

  it('refuses a DTD, an unknown image and an unnamed image it cannot match, storing no rows', async () => {
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'IMG_1.png', bytes: await testImage('png', 60, 40) }]);
    await upload(t.app, owner.auth, setId, [{ fileName: 'IMG_2 copy 1.png', bytes: await testImage('png', 60, 40) }]);
    const before = await rowCounts();
    const cases = [
      { name: 'a.xml', bytes: alto(2, fileName('IMG_1.png'), '', '<!DOCTYPE alto [<!ENTITY e "boom">]>'), message: XML_WITH_DTD },
      { name: 'b.xml', bytes: alto(3, fileName('IMG_9.png')), message: 'This XML belongs to the image "IMG_9.png", which is not in this image set: upload the image first.' },
      // Number 1 is in two labels ("IMG_1" and "IMG_2 copy 1"): the name does not tell.
      { name: 'ALTO_0001.xml', bytes: alto(4, ''), message: UNKNOWN_ALTO_IMAGE },
      { name: 'notes.xml', bytes: alto(4, ''), message: UNKNOWN_ALTO_IMAGE },
      { name: 'c.xml', bytes: alto(4, '<MeasurementUnit>furlong</MeasurementUnit>'), message: 'This ALTO file measures in "furlong"' },
      { name: 'd.xml', bytes: Buffer.from('<alto xmlns="http://schema.ccs-gmbh.com/ALTO"><Layout/></alto>'), message: 'only those versions can be imported', status: 415 },
    ];
    for (const c of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: c.name, bytes: c.bytes }]);
      expect(res.status, c.message).toBe(c.status ?? 400);
      expect(res.json.message).toContain(c.message);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.skipIf(!fs.existsSync(KANT))('imports the kant1784 ALTO pages: one transcription per image, line texts as in PAGE', async () => {
    const expected = fs
      .readFileSync(path.join(KANT, 'expected_lines_from_PAGE.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string, string]);
    const setId = await createSet(t.app, owner.auth, 'Kant ALTO');
    const images: Record<string, string> = {};
    for (const n of ['0017', '0020']) {
      const tif = await upload(t.app, owner.auth, setId, [{ fileName: `INPUT_${n}.tif`, bytes: fs.readFileSync(path.join(KANT, 'data/OCR-D-IMG', `INPUT_${n}.tif`)) }]);
      expect(tif.status, JSON.stringify(tif.json)).toBe(200);
      images[n] = tif.json.documentImages[0].uuid;
    }
    for (const n of ['0017', '0020']) {
      const xml = fs.readFileSync(path.join(KANT, 'data/OCR-D-GT-ALTO', `PAGE_${n}_ALTO.xml`));
      const res = await upload(t.app, owner.auth, setId, [{ fileName: `PAGE_${n}_ALTO.xml`, bytes: xml }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.documentImages[0].uuid).toBe(images[n]);
      const row = await layoutOf(res.json.transcriptions[0]);
      const lines = (row.layout as { regions: LayoutRegion[] }).regions.flatMap((r) => r.lines);
      const want = expected.filter(([file]) => file === `data/OCR-D-GT-PAGE/PAGE_${n}_PAGE.xml`);
      const noSpaces = (s: string) => s.replace(/\s/g, '');
      expect(lines.map((l) => [l.id, noSpaces(l.text)])).toEqual(want.map(([, id, text]) => [id, noSpaces(text)]));
      expect(lines.every((l) => l.coords && l.baseline)).toBe(true);
    }
    for (const imageId of Object.values(images)) {
      const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
      expect(list.json).toHaveLength(1);
    }
  });
});
