import fs from 'node:fs';
import type { CreateJobInput } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutor } from '../../test-support/job-context.js';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { type PageLineSpec, pageWithLines } from '../../test-support/text-lines.js';
import { NO_TESSERACT, TEXT_PAGE, tesseractWithEnglish, textLineBox, textPage } from '../../test-support/text-images.js';
import { createSet, upload } from '../../test-support/upload-files.js';
import { redoTesseract4ExistingPageXml } from './redo-tesseract4-existing-page-xml.js';

const HAS_TESSERACT = tesseractWithEnglish();
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);

const PRINTED = ['The quick brown fox', 'jumps over the lazy dog'];

/** PAGE lines over the printed ones (at `scale` of the image's size), with other texts. */
function linesOver(scale: number): PageLineSpec[] {
  return PRINTED.map((_, i) => {
    const b = textLineBox(i);
    const [x0, y0, x1, y1] = [b.x, b.y, b.x + b.w - 1, b.y + b.h - 1].map((v) => Math.round(v * scale));
    return { text: `old text ${i + 1}`, points: `${x0},${y0} ${x1},${y0} ${x1},${y1} ${x0},${y1}` };
  });
}

describe.skipIf(!HAS_TESSERACT)('RedoTesseract4ExistingPageXML', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const run = (settings: Omit<CreateJobInput, 'jobType'>, ownerId: string | null = owner.userId) =>
    runExecutor(t.app, redoTesseract4ExistingPageXml, { type: 'RedoTesseract4ExistingPageXML', settings, ownerId });

  const transcriptionsOf = async (imageId: string) =>
    (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth })).json as {
      uuid: string;
      format: string;
      transcriber: string;
      cleanText: string;
      params: Record<string, unknown> | null;
    }[];

  /** A printed page and its PAGE file, measured on a copy `scale` times the image's size, with a line without outline. */
  async function pageWithLayout(setId: string, label: string, scale = 1) {
    const png = await textPage(PRINTED);
    const image = await upload(t.app, owner.auth, setId, [{ fileName: `${label}.png`, bytes: png }]);
    const height = TEXT_PAGE.firstBaseline + PRINTED.length * TEXT_PAGE.lineHeight;
    const size = { width: Math.round(TEXT_PAGE.width * scale), height: Math.round(height * scale) };
    const lines = [...linesOver(scale), { text: 'a line without outline' }];
    const xml = await upload(t.app, owner.auth, setId, [{ fileName: `${label}.xml`, bytes: pageWithLines(`${label}.png`, lines, size) }]);
    expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    return { imageId: image.json.documentImages[0].uuid as string, sourceId: xml.json.transcriptions[0] as string };
  }

  const layoutOf = async (imageId: string, transcriptionId: string) =>
    (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`, headers: owner.auth })).json;

  it('reads each outlined line of the PAGE layouts again, into a PAGE transcription with the same layout and the new texts', async () => {
    const setId = await createSet(t.app, owner.auth, 'Layouts');
    const same = await pageWithLayout(setId, 'same-size');
    const half = await pageWithLayout(setId, 'half-size', 0.5);
    const result = await run({ imageSet: setId });
    expect(result.notes).toMatchObject({ images: 2, recognised: 2, linesRead: 4, linesNotRead: 2, failed: 0 });

    for (const page of [same, half]) {
      const all = await transcriptionsOf(page.imageId);
      expect(all).toHaveLength(2);
      const redone = all.find((tr) => tr.uuid !== page.sourceId);
      expect(redone).toMatchObject({ format: 'page', transcriber: `Tesseract ${result.notes.tesseract} (lines of ${page === same ? 'same' : 'half'}-size.xml)` });
      expect(redone!.params).toMatchObject({ job: 'RedoTesseract4ExistingPageXML', source: page.sourceId, model: 'eng' });
      expect(redone!.cleanText).toBe([...PRINTED, 'a line without outline'].join('\n'));
      const before = await layoutOf(page.imageId, page.sourceId);
      const after = await layoutOf(page.imageId, redone!.uuid);
      const shape = (l: { regions: { id: string; coords: unknown; lines: { id: string; coords: unknown }[] }[] }) =>
        l.regions.map((r) => [r.id, r.coords, r.lines.map((line) => [line.id, line.coords])]);
      expect(shape(after)).toEqual(shape(before));
    }

    const lines = await t.app.database.db
      .selectFrom('simple_text_line as l')
      .innerJoin('transcription as t', 't.id', 'l.transcription_id')
      .select(['l.text', 'l.confidence', 'l.region_x'])
      .where('t.image_id', '=', same.imageId)
      .where('t.id', '!=', same.sourceId)
      .orderBy('l.line_index')
      .execute();
    expect(lines.map((l) => l.text)).toEqual([...PRINTED, 'a line without outline']);
    expect(lines[0]!.confidence).toBeGreaterThan(0.5);
    expect(lines[2]!.confidence).toBeNull();
    // Tesseract's words are placed on the page: the first starts near where the line is printed.
    const words = (await t.app.database.db.selectFrom('transcription').select('layout').where('params', '@>', JSON.stringify({ source: half.sourceId })).executeTakeFirstOrThrow())
      .layout as { regions: { lines: { words?: { coords: string; text: string; confidence: number }[] }[] }[] };
    const first = words.regions[0]!.lines[0]!.words![0]!;
    expect(first).toMatchObject({ text: 'The', confidence: expect.any(Number) });
    const x0 = Number(first.coords.split(',')[0]);
    expect(Math.abs(x0 - TEXT_PAGE.left / 2)).toBeLessThan(8);
  });

  it('skips a page read with the same model, and replaces it when read with another', async () => {
    const setId = await createSet(t.app, owner.auth, 'Layouts again');
    const page = await pageWithLayout(setId, 'p1');
    await run({ imageSet: setId });
    const redone = async () => (await transcriptionsOf(page.imageId)).filter((tr) => tr.uuid !== page.sourceId);
    const [first] = await redone();
    expect((await run({ imageSet: setId })).notes).toMatchObject({ images: 1, alreadyDone: 1, recognised: 0 });

    const admin = await signedInUser(t.app, { admin: true });
    const bytes = fs.readFileSync('/usr/share/tesseract-ocr/5/tessdata/eng.traineddata');
    const model = await createModel(t.app, admin.auth, 'tesseract4', { label: 'English again', language: 'eng', file: { fileName: 'eng.traineddata', bytes } });
    const other = await run({ imageSet: setId, tesseract4model: model.json.uuid });
    expect(other.notes).toMatchObject({ images: 1, alreadyDone: 0, replaced: 1 });
    expect(await redone()).toEqual([expect.objectContaining({ uuid: first!.uuid, params: expect.objectContaining({ model: model.json.uuid }) })]);
  });

  it("acts with the owner's rights", async () => {
    const setId = await createSet(t.app, owner.auth, 'Not yours');
    await pageWithLayout(setId, 'p1');
    const stranger = await signedInUser(t.app);
    await expect(run({ imageSet: setId }, stranger.userId)).rejects.toMatchObject({ status: 404 });
  });
});
