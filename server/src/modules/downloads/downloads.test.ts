import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import * as mupdf from 'mupdf';
import { PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import sharp, { type Color } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { PAGE_2019_NS } from './page-xml-export.js';
import { SHARED_FIXTURES } from '../../test-support/fixtures.js';
import { readZip, validatePage } from '../../test-support/page-export.js';

const SHARED = SHARED_FIXTURES;
const KANT = path.join(SHARED, 'page/kant1784');

/** Text that must survive the round trip exactly: markup characters, combining marks, astral plane. */
const TRICKY = ['a & b < c > d "e" \'f\'', 'ſ̃ q̄ ꝑ 𝔄 — e\u0301', '  leading and trailing  '];
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function page2019(imageFilename: string, lines: string[]): Buffer {
  const body = lines
    .map((text, i) => `<TextLine id="l${i}"><Coords points="1,1 50,1 50,9 1,9"/><TextEquiv><Unicode>${escape(text)}</Unicode></TextEquiv></TextLine>`)
    .join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="${PAGE_2019_NS}"><Metadata><Creator>Test</Creator>` +
      `<Created>2020-01-01T00:00:00</Created><LastChange>2020-01-01T00:00:00</LastChange></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40"><TextRegion id="r1">` +
      `<Coords points="0,0 59,0 59,39 0,39"/>${body}</TextRegion></Page></PcGts>`,
  );
}

describe('downloads of an image set', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  const images: { uuid: string; name: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    other = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth, 'Downloads');
    const files = [
      { fileName: 'folio 1.png', bytes: await testImage('png', 60, 40) },
      { fileName: 'folio 2.jpg', bytes: await testImage('jpeg', 30, 80) },
      { fileName: 'folio 3.tif', bytes: await testImage('tiff', 50, 50) },
      { fileName: 'folio 4.webp', bytes: await testImage('webp', 40, 20) },
    ];
    for (const file of files) {
      const res = await upload(t.app, owner.auth, setId, [file]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      images.push(...(res.json.documentImages as { uuid: string; name: string }[]));
    }
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'folio 1.xml', bytes: page2019('folio 1.png', TRICKY) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  });
  afterAll(() => t.close());

  const get = (kind: string, auth: Record<string, string> = owner.auth, id = setId) =>
    t.app.inject({ method: 'GET', url: `/api/pim/imageset/${id}/${kind}`, headers: auth });

  it('get: {uuid}_json.zip with set.json and each image with its transcriptions and layout', async () => {
    const res = await get('get');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${setId}_json.zip"`);
    const zip = readZip(res.rawPayload);
    expect([...zip.keys()]).toEqual(['set.json', ...images.map((image, i) => `images/${i + 1}-${image.uuid}.json`)]);
    expect(JSON.parse(zip.get('set.json')!.toString())).toMatchObject({ uuid: setId, imageset: 'Downloads' });
    const first = JSON.parse(zip.get(`images/1-${images[0]!.uuid}.json`)!.toString());
    expect(first).toMatchObject({ uuid: images[0]!.uuid, label: 'folio 1', width: 60, height: 40, pageorder: 1 });
    expect(first.transcriptions).toHaveLength(1);
    expect(first.transcriptions[0].cleanText).toBe(TRICKY.join('\n'));
    expect(first.transcriptions[0].layout.regions[0].lines.map((l: { text: string }) => l.text)).toEqual(TRICKY);
    const second = JSON.parse(zip.get(`images/2-${images[1]!.uuid}.json`)!.toString());
    expect(second).toMatchObject({ label: 'folio 2', width: 30, height: 80, transcriptions: [] });
  });

  it('page: a corrected line has its ground truth as TextEquiv index 0 and the recognised text as index 1, still valid PAGE', async () => {
    const set = await createSet(t.app, owner.auth, 'Corrected');
    expect((await upload(t.app, owner.auth, set, [{ fileName: 'folio.png', bytes: await testImage('png', 60, 40) }])).status).toBe(200);
    const xml = await upload(t.app, owner.auth, set, [{ fileName: 'folio.xml', bytes: page2019('folio.png', TRICKY) }]);
    const line = await t.app.database.db
      .selectFrom('simple_text_line')
      .select('id')
      .where('transcription_id', '=', xml.json.transcriptions[0])
      .where('line_index', '=', 1)
      .executeTakeFirstOrThrow();
    const groundTruth = ' ſ̃ q̄ ꝑ 𝔄 — é & <b> ';
    const payload = { uuid: line.id, groundtruth: groundTruth };
    expect((await call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: owner.auth, payload })).status).toBe(200);
    const zip = readZip((await get('page', owner.auth, set)).rawPayload);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', trimValues: false, parseTagValue: false, isArray: (n) => n === 'TextLine' || n === 'TextEquiv' });
    const lines = parser.parse(zip.get('1-folio.xml')!.toString()).PcGts.Page.TextRegion.TextLine as { TextEquiv: unknown[] }[];
    expect(lines.map((l) => l.TextEquiv)).toEqual([
      [{ Unicode: TRICKY[0] }],
      [{ '@index': '0', Unicode: groundTruth }, { '@index': '1', Unicode: TRICKY[1] }],
      [{ Unicode: TRICKY[2] }],
    ]);
    await validatePage(zip);
  });

  it('zippedimages: {uuid}_images.zip with the original files named <n>-<label>.<ext>', async () => {
    const res = await get('zippedimages');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${setId}_images.zip"`);
    const zip = readZip(res.rawPayload);
    expect([...zip.keys()]).toEqual(['1-folio 1.png', '2-folio 2.jpg', '3-folio 3.tif', '4-folio 4.webp']);
    for (const [i, image] of images.entries()) {
      const original = await t.app.inject({ method: 'GET', url: `/api/pim/image/${image.uuid}`, headers: owner.auth });
      expect(zip.get([...zip.keys()][i]!)!.equals(original.rawPayload)).toBe(true);
    }
  });

  it('page: {uuid}_page.zip with a PAGE 2019 file per image, text kept exactly, empty Page without transcription', async () => {
    const res = await get('page');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${setId}_page.zip"`);
    const zip = readZip(res.rawPayload);
    expect([...zip.keys()]).toEqual(['1-folio 1.xml', '2-folio 2.xml', '3-folio 3.xml', '4-folio 4.xml']);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', trimValues: false, parseTagValue: false, isArray: (n) => n === 'TextLine' });
    const first = parser.parse(zip.get('1-folio 1.xml')!.toString()).PcGts;
    expect(first['@xmlns']).toBe(PAGE_2019_NS);
    expect(first.Metadata.Creator).toBe('PIM');
    expect(first.Page).toMatchObject({ '@imageFilename': 'folio 1.png', '@imageWidth': '60', '@imageHeight': '40' });
    const lines = first.Page.TextRegion.TextLine as { Coords: Record<string, string>; TextEquiv: { Unicode: string } }[];
    expect(lines.map((l) => l.TextEquiv.Unicode)).toEqual(TRICKY);
    expect(lines[0]!.Coords['@points']).toBe('1,1 50,1 50,9 1,9');
    const empty = parser.parse(zip.get('2-folio 2.xml')!.toString()).PcGts;
    expect(empty.Page).toMatchObject({ '@imageFilename': 'folio 2.jpg', '@imageWidth': '30', '@imageHeight': '80' });
    expect(empty.Page.TextRegion).toBeUndefined();
    await validatePage(zip);
  });

  it('pdf: {uuid}.pdf streamed, a page per image in order at the image aspect, JPEGs stored as they are', async () => {
    const res = await get('pdf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${setId}.pdf"`);
    // A body sent whole would have its length announced; a stream's is not known up front.
    expect(res.headers['content-length']).toBeUndefined();
    const pdf = await PDFDocument.load(res.rawPayload, { updateMetadata: false });
    expect(pdf.getTitle()).toBe('Downloads');
    expect(pdf.getCreator()).toBe('PIM');
    const ratios = pdf.getPages().map((p) => p.getWidth() / p.getHeight());
    const expected = [60 / 40, 30 / 80, 1, 40 / 20];
    expect(ratios).toHaveLength(4);
    ratios.forEach((r, i) => expect(r).toBeCloseTo(expected[i]!, 5));
    expect(pdf.getPages().map((p) => Math.max(p.getWidth(), p.getHeight()))).toEqual([842, 842, 842, 842]);
    const jpeg = await t.app.inject({ method: 'GET', url: `/api/pim/image/${images[1]!.uuid}`, headers: owner.auth });
    const embedded = pageImages(pdf);
    expect(embedded.map((i) => i.filter)).toEqual(['/DCTDecode', '/DCTDecode', '/DCTDecode', '/DCTDecode']);
    expect(embedded[1]!.bytes.equals(jpeg.rawPayload)).toBe(true);
  });

  it('pdf: an EXIF-rotated JPEG on an upright page, transparency on white, each drawn over its whole page', async () => {
    const set = await createSet(t.app, owner.auth, 'Turned');
    // Red left, blue right as stored; Orientation 6 shows it turned a quarter clockwise: red on top.
    const turned = await (await halves('#ff0000', '#0000ff')).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const clear = await (await halves({ r: 0, g: 0, b: 0, alpha: 0 }, '#00ff00')).png().toBuffer();
    for (const [fileName, bytes] of [['turned.jpg', turned], ['clear.png', clear]] as const) {
      const res = await upload(t.app, owner.auth, set, [{ fileName, bytes }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const bytes = (await get('pdf', owner.auth, set)).rawPayload;
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([[421, 842], [842, 421]]);

    const upright = render(bytes, 0);
    expectNear(upright.at(0.5, 0.1), [255, 0, 0]);
    expectNear(upright.at(0.5, 0.9), [0, 0, 255]);
    expectNear(upright.at(0.02, 0.02), [255, 0, 0]);
    expectNear(upright.at(0.98, 0.98), [0, 0, 255]);
    const flattened = render(bytes, 1);
    expectNear(flattened.at(0.1, 0.5), [255, 255, 255]);
    expectNear(flattened.at(0.9, 0.5), [0, 255, 0]);
  });

  it('answers 401 without a sign-in, 404 to a user who may not read the set, 400 for a bad id', async () => {
    for (const kind of ['get', 'page', 'zippedimages', 'pdf']) {
      expect((await get(kind, {})).statusCode).toBe(401);
      const hidden = await call(t.app, { method: 'GET', url: `/api/pim/imageset/${setId}/${kind}`, headers: other.auth });
      expect(hidden.status).toBe(404);
      expect(hidden.json.message).toContain('There is no image set');
      expect((await get(kind, owner.auth, 'not-a-uuid')).statusCode).toBe(400);
    }
  });

  it('an empty set gives empty zips, and no PDF (one without pages is refused by readers) but a message', async () => {
    const empty = await createSet(t.app, owner.auth, 'Empty');
    expect([...readZip((await get('get', owner.auth, empty)).rawPayload).keys()]).toEqual(['set.json']);
    expect(readZip((await get('page', owner.auth, empty)).rawPayload).size).toBe(0);
    expect(readZip((await get('zippedimages', owner.auth, empty)).rawPayload).size).toBe(0);
    const pdf = await call(t.app, { method: 'GET', url: `/api/pim/imageset/${empty}/pdf`, headers: owner.auth });
    expect(pdf.status).toBe(400);
    expect(pdf.json.message).toBe('This image set has no images to put in a PDF.');
  });

  it('page: drawn shapes become regions and lines beside the transcription, valid PAGE 2019', async () => {
    const set = await createSet(t.app, owner.auth, 'Drawn');
    const imageId = (await upload(t.app, owner.auth, set, [{ fileName: 'drawn.png', bytes: await testImage('png', 60, 40) }])).json.documentImages[0].uuid;
    await upload(t.app, owner.auth, set, [{ fileName: 'drawn.xml', bytes: page2019('drawn.png', ['a line']) }]);
    const shape = (kind: string, label: string, points: number[][]) => ({ id: randomUUID(), kind, label, points });
    const shapes = [
      shape('polygon', 'region', [[2, 2], [58, 2], [58, 30], [2, 30]]),
      shape('polygon', 'text-line', [[4, 4], [56, 4], [56, 12], [4, 12]]),
      shape('line', 'baseline', [[4, 11], [56, 11]]),
      shape('line', 'baseline', [[4, 24], [56, 24]]),
      shape('polygon', 'decoration', [[2, 32], [20, 32], [20, 39]]),
      shape('polygon', 'page-number', [[50, 32], [58, 32], [58, 39], [50, 39]]),
      shape('line', 'text-line', [[30, 40], [45, 40]]),
    ];
    const saved = await call(t.app, { method: 'PUT', url: `/api/pim/documentimage/${imageId}/drawing`, headers: owner.auth, payload: { shapes } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const zip = readZip((await get('page', owner.auth, set)).rawPayload);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'TextRegion' || n === 'TextLine' });
    const page = parser.parse(zip.get('1-drawn.xml')!.toString()).PcGts.Page;
    const regions = page.TextRegion as { '@id': string; '@type'?: string; TextLine?: { '@id': string; Baseline?: object }[] }[];
    expect(regions.map((r) => r['@type'])).toEqual([undefined, 'paragraph', 'page-number', undefined]);
    expect(regions[0]!.TextLine!.map((l) => l['@id'])).toEqual(['l0']);
    expect(regions[1]!.TextLine!.map((l) => [l['@id'], Boolean(l.Baseline)])).toEqual([
      [`drawn-${shapes[1]!.id}`, true],
      [`drawn-${shapes[3]!.id}`, true],
    ]);
    expect(regions[3]!.TextLine!.map((l) => l['@id'])).toEqual([`drawn-${shapes[6]!.id}`]);
    expect(page.GraphicRegion).toMatchObject({ '@id': `drawn-${shapes[4]!.id}`, '@type': 'decoration' });
    await validatePage(zip);
  });

  const fixtures = [
    { name: 'iforal Évora page 1 (JPEG)', dir: path.join(SHARED, 'page/iforal'), image: 'foral_de_evora_1218/1.jpg', page: 'foral_de_evora_1218/1.xml', tsv: 'expected_lines.tsv', entry: '1-1.xml' },
    { name: 'kant1784 page 17 (TIFF)', dir: KANT, image: 'data/OCR-D-IMG/INPUT_0017.tif', page: 'data/OCR-D-GT-PAGE/PAGE_0017_PAGE.xml', tsv: 'expected_lines_from_PAGE.tsv', entry: '1-INPUT_0017.xml' },
  ];
  for (const f of fixtures) {
    it.skipIf(!fs.existsSync(path.join(f.dir, f.tsv)))(`exports ${f.name} as valid PAGE 2019 with every line id and text of expected_lines`, async () => {
      const set = await createSet(t.app, owner.auth, f.name);
      for (const file of [f.image, f.page]) {
        const bytes = fs.readFileSync(path.join(f.dir, file));
        const res = await upload(t.app, owner.auth, set, [{ fileName: path.basename(file), bytes }]);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
      }
      const zip = readZip((await get('page', owner.auth, set)).rawPayload);
      const expected = fs
        .readFileSync(path.join(f.dir, f.tsv), 'utf8')
        .split('\n')
        .slice(1)
        .map((row) => row.split('\t'))
        .filter(([page]) => page === f.page)
        .map(([, id, text]) => ({ id, text }));
      expect(expected.length).toBeGreaterThan(0);
      const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '@',
        trimValues: false,
        parseTagValue: false,
        isArray: (n) => n === 'TextRegion' || n === 'TextLine',
      });
      const regions = parser.parse(zip.get(f.entry)!.toString()).PcGts.Page.TextRegion as { TextLine?: { '@id': string; TextEquiv: { Unicode: string } }[] }[];
      const exported = regions.flatMap((r) => r.TextLine ?? []).map((l) => ({ id: l['@id'], text: l.TextEquiv.Unicode }));
      expect(exported).toEqual(expected);
      await validatePage(zip);
    });
  }
});

/** A 40 x 20 image, its left half one colour and its right half another. */
async function halves(left: Color, right: Color) {
  const half = await sharp({ create: { width: 20, height: 20, channels: 4, background: right } }).png().toBuffer();
  const both = await sharp({ create: { width: 40, height: 20, channels: 4, background: left } }).composite([{ input: half, left: 20, top: 0 }]).png().toBuffer();
  return sharp(both);
}

/** Colours after JPEG compression and rendering: each channel within a small distance. */
function expectNear(actual: number[], expected: number[]) {
  actual.forEach((c, i) => expect(Math.abs(c - expected[i]!), `${actual} near ${expected}`).toBeLessThanOrEqual(24));
}

/** Each page's image XObject: its filter and its stream as stored (not decoded). */
function pageImages(pdf: PDFDocument) {
  return pdf.getPages().map((page) => {
    const xobjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    const image = xobjects.lookup(PDFName.of('Im0')) as PDFRawStream;
    return { filter: image.dict.get(PDFName.of('Filter'))?.toString(), bytes: Buffer.from(image.contents) };
  });
}

/** A page as mupdf draws it; `at` gives the RGB at a fraction of the width and height. */
function render(pdf: Buffer, index: number) {
  const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
  const [width, height, stride, n, pixels] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride(), pixmap.getNumberOfComponents(), pixmap.getPixels()];
  return {
    at(fx: number, fy: number): number[] {
      const offset = Math.floor(fy * height) * stride + Math.floor(fx * width) * n;
      return [...pixels.subarray(offset, offset + 3)];
    },
  };
}
