import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { TranscriptionLayout } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

const KANT = fixturePath('page', 'kant1784');
if (!fs.existsSync(KANT)) console.warn(`Skipping the kant1784 layout test: ${KANT} is absent.`);

/** A PAGE 2019 file measuring the page as `page` says, with two lines in one region. */
function pageXml(imageFilename: string, page: { width: number; height: number }): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata><Creator>eScriptorium</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>
  <Page imageFilename="${imageFilename}" imageWidth="${page.width}" imageHeight="${page.height}">
    <TextRegion id="r1" type="paragraph"><Coords points="20,20 380,20 380,180 20,180"/>
      <TextLine id="l1"><Coords points="40,40 360,40 360,80 40,80"/><Baseline points="40,76 360,76"/><TextEquiv><Unicode>In nomine domini</Unicode></TextEquiv></TextLine>
      <TextLine id="l2"><Baseline points="40,150 361,150"/><TextEquiv><Unicode>ꝑ ꝓ aͤ</Unicode></TextEquiv></TextLine>
    </TextRegion>
  </Page>
</PcGts>`);
}

describe('a transcription layout in the pixels of its image', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await signedInUser(t.app, { name: 'Alice' });
    bob = await signedInUser(t.app, { name: 'Bob' });
    setId = await createSet(t.app, alice.auth, 'Layouts');
  });
  afterAll(() => t.close());

  const get = (url: string, who: { auth: Record<string, string> } | null = alice) =>
    call(t.app, { method: 'GET', url: `/api/${url}`, headers: who?.auth ?? {} });

  async function imageWithPage(name: string, image: { width: number; height: number }, page: { width: number; height: number }, file = pageXml(`${name}.png`, page)) {
    const uploaded = await upload(t.app, alice.auth, setId, [{ fileName: `${name}.png`, bytes: await testImage('png', image.width, image.height) }]);
    const imageId = uploaded.json.documentImages[0].uuid as string;
    const xml = await upload(t.app, alice.auth, setId, [{ fileName: `${name}.xml`, bytes: file }]);
    expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    return { imageId, transcriptionId: xml.json.transcriptions[0] as string };
  }

  it('gives regions and lines with their outlines, baselines and text, numbered in layout order', async () => {
    const { imageId, transcriptionId } = await imageWithPage('folio-1', { width: 400, height: 200 }, { width: 400, height: 200 });
    const res = await get(`pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      transcriptionId,
      width: 400,
      height: 200,
      regions: [
        {
          id: 'r1',
          type: 'paragraph',
          coords: [[20, 20], [380, 20], [380, 180], [20, 180]],
          lines: [
            { index: 0, id: 'l1', text: 'In nomine domini', coords: [[40, 40], [360, 40], [360, 80], [40, 80]], baseline: [[40, 76], [360, 76]] },
            { index: 1, id: 'l2', text: 'ꝑ ꝓ aͤ', coords: null, baseline: [[40, 150], [361, 150]] },
          ],
        },
      ],
      readingOrder: [0, 1],
    });
    // The transcription names the file it was read from.
    const list = await get(`pim/documentimage/${imageId}/transcriptions`);
    expect(list.json[0]).toMatchObject({ uuid: transcriptionId, format: 'page', transcriber: 'eScriptorium', sourceFileName: 'folio-1.xml' });
  });

  it("lists the lines in the order of the PAGE ReadingOrder, a region it leaves out after the one before it in the file", async () => {
    const region = (id: string, ...lines: string[]) =>
      `<TextRegion id="${id}"><Coords points="0,0 10,0 10,10 0,10"/>${lines.map((text) => `<TextLine id="${text}"><Coords points="0,0 10,0 10,10"/><TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`).join('')}</TextRegion>`;
    // The file writes r1 (a, b), r2 (c), r3 (d), r4 (e); its ReadingOrder reads r3, r1, then r2 in an unordered group, and leaves r4 out.
    const xml = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata><Creator>Transkribus</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>
  <Page imageFilename="folio-order.png" imageWidth="400" imageHeight="200">
    <ReadingOrder><OrderedGroup id="ro">
      <RegionRefIndexed index="1" regionRef="r1"/>
      <UnorderedGroupIndexed id="g" index="2"><RegionRef regionRef="r2"/></UnorderedGroupIndexed>
      <RegionRefIndexed index="0" regionRef="r3"/>
    </OrderedGroup></ReadingOrder>
    ${region('r1', 'a', 'b')}${region('r2', 'c')}${region('r3', 'd')}${region('r4', 'e')}
  </Page>
</PcGts>`);
    const { imageId, transcriptionId } = await imageWithPage('folio-order', { width: 400, height: 200 }, { width: 400, height: 200 }, xml);
    const layout = (await get(`pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`)).json as TranscriptionLayout;
    const text = (index: number) => layout.regions.flatMap((r) => r.lines).find((line) => line.index === index)!.text;
    expect(layout.regions.flatMap((r) => r.lines.map((line) => line.index))).toEqual([0, 1, 2, 3, 4]);
    expect(layout.readingOrder.map(text)).toEqual(['d', 'e', 'a', 'b', 'c']);
  });

  it('scales a layout measured on a page of another size to the image', async () => {
    // The PAGE file was made on a copy twice the size of the uploaded image.
    const { imageId, transcriptionId } = await imageWithPage('folio-2', { width: 200, height: 100 }, { width: 400, height: 200 });
    const layout = (await get(`pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`)).json as TranscriptionLayout;
    expect(layout).toMatchObject({ width: 200, height: 100 });
    const [first, second] = layout.regions[0]!.lines;
    expect(layout.regions[0]!.coords).toEqual([[10, 10], [190, 10], [190, 90], [10, 90]]);
    expect(first!.coords).toEqual([[20, 20], [180, 20], [180, 40], [20, 40]]);
    expect(second!.baseline).toEqual([[20, 75], [180.5, 75]]);
  });

  it('answers 404 for a transcription of another image or a hidden image, 400 for bad ids, 401 for anonymous', async () => {
    const { imageId, transcriptionId } = await imageWithPage('folio-3', { width: 400, height: 200 }, { width: 400, height: 200 });
    const other = await imageWithPage('folio-4', { width: 400, height: 200 }, { width: 400, height: 200 });
    const notOfImage = await get(`pim/documentimage/${imageId}/transcriptions/${other.transcriptionId}/layout`);
    expect(notOfImage.status).toBe(404);
    expect(notOfImage.json.message).toBe(`The document image ${imageId} has no transcription with id ${other.transcriptionId}.`);
    expect((await get(`pim/documentimage/${imageId}/transcriptions/${randomUUID()}/layout`)).status).toBe(404);
    expect((await get(`pim/documentimage/${randomUUID()}/transcriptions/${transcriptionId}/layout`)).status).toBe(404);
    expect((await get(`pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`, bob)).status).toBe(404);
    expect((await get(`pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`, null)).status).toBe(401);
    const bad = await get(`pim/documentimage/${imageId}/transcriptions/nope/layout`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('The transcription id must be a UUID.');
  });

  it.skipIf(!fs.existsSync(KANT))('draws the PAGE and the ALTO of the same page (kant1784) on the same lines', async () => {
    const tif = await upload(t.app, alice.auth, setId, [
      { fileName: 'INPUT_0017.tif', bytes: fs.readFileSync(path.join(KANT, 'data/OCR-D-IMG/INPUT_0017.tif')) },
    ]);
    const imageId = tif.json.documentImages[0].uuid as string;
    const layouts: Record<string, TranscriptionLayout> = {};
    for (const [format, folder, file] of [
      ['page', 'OCR-D-GT-PAGE', 'PAGE_0017_PAGE.xml'],
      ['alto', 'OCR-D-GT-ALTO', 'PAGE_0017_ALTO.xml'],
    ] as const) {
      const res = await upload(t.app, alice.auth, setId, [{ fileName: file, bytes: fs.readFileSync(path.join(KANT, 'data', folder, file)) }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      layouts[format] = (await get(`pim/documentimage/${imageId}/transcriptions/${res.json.transcriptions[0]}/layout`)).json;
    }
    const lines = (layout: TranscriptionLayout) => layout.regions.flatMap((r) => r.lines);
    const page = lines(layouts.page!);
    const alto = lines(layouts.alto!);
    expect(page).toHaveLength(24);
    expect(alto.map((l) => l.id)).toEqual(page.map((l) => l.id));
    // The PAGE file's ReadingOrder reads its regions as written; ALTO has none: the layout's order.
    expect(layouts.page!.readingOrder).toEqual(page.map((l) => l.index));
    expect(layouts.alto!.readingOrder).toEqual(alto.map((l) => l.index));
    // Every line has its outline, and the two files put it in the same place (ALTO gives boxes
    // where PAGE has some polygons); the PAGE file has a baseline on all lines but one.
    const box = (points: [number, number][]) => {
      const xs = points.map(([x]) => x);
      const ys = points.map(([, y]) => y);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    };
    for (const [i, line] of page.entries()) {
      expect(line.coords?.length).toBeGreaterThanOrEqual(4);
      const [pageBox, altoBox] = [box(line.coords!), box(alto[i]!.coords!)];
      pageBox.forEach((v, j) => expect(Math.abs(v - altoBox[j]!), `line ${line.id}`).toBeLessThanOrEqual(2));
    }
    expect(page.filter((line) => line.baseline !== null)).toHaveLength(23);
    expect(alto.filter((line) => line.baseline !== null)).toHaveLength(24);
  });
});
