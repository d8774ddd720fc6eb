import fs from 'node:fs';
import type { CreateJobInput } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { runExecutor } from '../../test-support/job-context.js';
import { tinyTraineddata } from '../../test-support/model-files.js';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { NO_TESSERACT, tesseractWithEnglish, textPage } from '../../test-support/text-images.js';
import { createSet, upload } from '../../test-support/upload-files.js';
import { tesseract4Hocr } from './tesseract4-hocr.js';

const HAS_TESSERACT = tesseractWithEnglish();
const ALICE = fixturePath('hocr', 'alice_1.png');
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);
if (!fs.existsSync(ALICE)) console.warn(`Skipping the Tesseract test on a real scan: ${ALICE} is absent.`);

const PAGES = [
  ['The quick brown fox', 'jumps over the lazy dog'],
  ['Pack my box with', 'five dozen liquor jugs'],
  ['Sphinx of black quartz', 'judge my vow'],
];

describe.skipIf(!HAS_TESSERACT)('Tesseract4Hocr', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;

  /** A set of the owner's with a page image per entry of `pages`; answers the set and image ids. */
  async function setOfPages(pages: string[][]): Promise<{ setId: string; imageIds: string[] }> {
    const setId = await createSet(t.app, owner.auth, 'Printed pages');
    const imageIds: string[] = [];
    for (const [i, lines] of pages.entries()) imageIds.push(await addPage(setId, `page-${i + 1}`, lines));
    return { setId, imageIds };
  }

  async function addPage(setId: string, label: string, lines: string[]): Promise<string> {
    const res = await upload(t.app, owner.auth, setId, [{ fileName: `${label}.png`, bytes: await textPage(lines) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json.documentImages[0].uuid as string;
  }

  const run = (settings: Omit<CreateJobInput, 'jobType'>, ownerId: string | null = owner.userId, onProgress?: Parameters<typeof runExecutor>[3]) =>
    runExecutor(t.app, tesseract4Hocr, { type: 'Tesseract4Hocr', settings, ownerId }, onProgress);

  const transcriptionsOf = async (imageId: string) =>
    (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth })).json as {
      uuid: string;
      format: string;
      transcriber: string;
      language: string;
      cleanText: string;
      sourceFileName: string;
      params: Record<string, unknown>;
    }[];

  it("stores each page's hOCR as a transcription of the image, with text lines and their confidences", async () => {
    const { setId, imageIds } = await setOfPages(PAGES.slice(0, 2));
    const result = await run({ imageSet: setId });

    expect(result.notes).toMatchObject({ images: 2, recognised: 2, replaced: 0, alreadyDone: 0, failed: 0, tesseract: expect.stringMatching(/^\d+\.\d+/) });
    expect(result.progress.map((p) => [p.done, p.total])).toEqual([[0, 2], [1, 2], [2, 2]]);
    expect(result.progress[1]!.message).toBe('Page 2 of 2: page-2');

    const version = result.notes.tesseract as string;
    const [first] = await transcriptionsOf(imageIds[0]!);
    expect(first).toMatchObject({ format: 'hocr', transcriber: `Tesseract ${version} (eng)`, language: 'eng', sourceFileName: 'page-1.hocr' });
    expect(first!.cleanText).toBe('The quick brown fox\njumps over the lazy dog');
    expect(first!.params).toMatchObject({ job: 'Tesseract4Hocr', model: 'eng', tesseract: version });

    const layout = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageIds[0]}/transcriptions/${first!.uuid}/layout`, headers: owner.auth });
    expect(layout.json.regions.flatMap((r: { lines: { text: string }[] }) => r.lines.map((l) => l.text))).toEqual(PAGES[0]);

    const lines = await db()
      .selectFrom('simple_text_line')
      .select(['text', 'confidence', 'lowest_conf', 'region_y'])
      .where('image_id', '=', imageIds[1]!)
      .orderBy('line_index')
      .execute();
    expect(lines.map((l) => l.text)).toEqual(PAGES[1]);
    for (const line of lines) {
      expect(line.confidence).toBeGreaterThan(0.5);
      expect(line.confidence).toBeLessThanOrEqual(1);
      expect(line.lowest_conf).toBeLessThanOrEqual(line.confidence!);
    }
    // The second line lies below the first, in the image's own pixels.
    expect(lines[1]!.region_y).toBeGreaterThan(lines[0]!.region_y! + 50);
    const image = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageIds[1]}`, headers: owner.auth });
    expect(image.json).toMatchObject({ linesCount: 2, tesseractText: PAGES[1]!.join('\n') });
  });

  it.skipIf(!fs.existsSync(ALICE))('reads a real scanned page: Alice, 300 dpi, from hocr-tools', async () => {
    const setId = await createSet(t.app, owner.auth, 'Alice');
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'alice_1.png', bytes: fs.readFileSync(ALICE) }]);
    const imageId = res.json.documentImages[0].uuid as string;
    expect((await run({ imageSet: setId })).notes).toMatchObject({ recognised: 1, failed: 0 });
    const [made] = await transcriptionsOf(imageId);
    expect(made!.cleanText).toContain('Down the Rabbit-Hole');
    expect(made!.cleanText.replace(/\s+/g, ' ')).toContain('Alice was beginning to get very tired of sitting by her sister on the bank');
    const lines = await db().selectFrom('simple_text_line').select(['text', 'confidence']).where('transcription_id', '=', made!.uuid).execute();
    // The page has 37 lines of text (the hOCR of Tesseract 3 beside it says so); a page number may count as one more.
    expect(lines.length).toBeGreaterThanOrEqual(37);
    expect(lines.length).toBeLessThanOrEqual(39);
    expect(lines.filter((l) => l.confidence !== null && l.confidence > 0.8).length).toBeGreaterThan(30);
  });

  it('reads only images without its transcription unless allData, which replaces each one, keeping the ground truth of its lines', async () => {
    const { setId, imageIds } = await setOfPages(PAGES.slice(0, 2));
    await run({ imageSet: setId });
    const [before] = await transcriptionsOf(imageIds[0]!);
    const line = await db().selectFrom('simple_text_line').select('id').where('transcription_id', '=', before!.uuid).where('line_index', '=', 1).executeTakeFirstOrThrow();
    const corrected = await call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: owner.auth, payload: { uuid: line.id, groundtruth: 'jumps over the lazy dogs' } });
    expect(corrected.status).toBe(200);

    const again = await run({ imageSet: setId });
    expect(again.notes).toMatchObject({ images: 2, alreadyDone: 2, recognised: 0, replaced: 0 });
    expect(again.progress).toEqual([{ done: 0, total: 0, message: 'Done' }]);

    const third = await addPage(setId, 'page-3', PAGES[2]!);
    expect((await run({ imageSet: setId })).notes).toMatchObject({ images: 3, alreadyDone: 2, recognised: 1 });
    expect((await transcriptionsOf(third)).map((tr) => tr.cleanText)).toEqual([PAGES[2]!.join('\n')]);

    const files = () => db().selectFrom('image_set_file').select('file_id').where('set_id', '=', setId).where('kind', '=', 'xml').execute();
    const filesBefore = await files();
    const all = await run({ imageSet: setId, allData: true });
    expect(all.notes).toMatchObject({ images: 3, alreadyDone: 0, recognised: 0, replaced: 3, groundTruthKept: 1, groundTruthDropped: 0 });
    for (const imageId of [...imageIds, third]) expect(await transcriptionsOf(imageId)).toHaveLength(1);
    const [after] = await transcriptionsOf(imageIds[0]!);
    expect(after!.uuid).toBe(before!.uuid);
    expect(after!.params.jobUuid).not.toBe(before!.params.jobUuid);
    // The replaced hOCR files left the set with their rows; the new ones took their place.
    const filesAfter = await files();
    expect(filesAfter).toHaveLength(3);
    expect(filesAfter.filter((f) => filesBefore.some((b) => b.file_id === f.file_id))).toEqual([]);
    expect(await db().selectFrom('stored_file').select('id').where('id', 'in', filesBefore.map((f) => f.file_id)).execute()).toEqual([]);
    const kept = await db()
      .selectFrom('simple_text_line')
      .select(['text', 'ground_truth', 'cer'])
      .where('transcription_id', '=', after!.uuid)
      .orderBy('line_index')
      .execute();
    expect(kept).toEqual([
      { text: 'The quick brown fox', ground_truth: null, cer: null },
      { text: 'jumps over the lazy dog', ground_truth: 'jumps over the lazy dogs', cer: expect.closeTo(1 / 24, 5) },
    ]);
  });

  it('never stores a second transcription of an image when two runs read the same set at once', async () => {
    const { setId, imageIds } = await setOfPages(PAGES);
    const [a, b] = await Promise.all([run({ imageSet: setId }), run({ imageSet: setId })]);
    expect((a.notes.recognised as number) + (b.notes.recognised as number)).toBe(3);
    for (const imageId of imageIds) expect(await transcriptionsOf(imageId)).toHaveLength(1);
  });

  it('stops when aborted: the page being read is not stored and no later page is read', async () => {
    const { setId, imageIds } = await setOfPages(PAGES);
    const done = run({ imageSet: setId }, owner.userId, (r) => {
      if (r.progress.length === 2) r.controller.abort(new Error('cancelled'));
    });
    await expect(done).rejects.toThrow('cancelled');
    const stored = await Promise.all(imageIds.map(async (id) => (await transcriptionsOf(id)).length));
    expect(stored).toEqual([1, 0, 0]);
  });

  it('notes a damaged image and reads the others', async () => {
    // Text of its own: the store keeps one file for the same bytes, and this one is damaged below.
    const { setId, imageIds } = await setOfPages([['A page that goes bad'], PAGES[1]!]);
    const file = await db()
      .selectFrom('document_image as d')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select('f.sha256')
      .where('d.id', '=', imageIds[0]!)
      .executeTakeFirstOrThrow();
    // The stored file goes bad on disk after its upload was checked.
    fs.writeFileSync(t.app.services.files.pathOf(file.sha256), Buffer.from('this is not an image any more'));
    const result = await run({ imageSet: setId });
    expect(result.notes).toMatchObject({
      recognised: 1,
      failed: 1,
      failedImages: [{ image: imageIds[0], label: 'page-1', error: 'The image file is damaged or not an image.' }],
    });
    expect(await transcriptionsOf(imageIds[0]!)).toEqual([]);
    expect(await transcriptionsOf(imageIds[1]!)).toHaveLength(1);
  });

  it('reads with an uploaded Tesseract model under its language, and fails the job on one Tesseract cannot load', async () => {
    const admin = await signedInUser(t.app, { admin: true });
    const bytes = fs.readFileSync('/usr/share/tesseract-ocr/5/tessdata/eng.traineddata');
    // Filed as Dutch: Tesseract has no Dutch of its own here, so only the uploaded file can read it.
    const model = await createModel(t.app, admin.auth, 'tesseract4', { label: 'Printed English', language: 'nld', file: { fileName: 'eng.traineddata', bytes } });
    expect(model.status, JSON.stringify(model.json)).toBe(201);
    const { setId, imageIds } = await setOfPages(PAGES.slice(0, 1));
    const result = await run({ imageSet: setId, tesseract4model: model.json.uuid });
    expect(result.notes).toMatchObject({ recognised: 1, failed: 0 });
    const [made] = await transcriptionsOf(imageIds[0]!);
    expect(made).toMatchObject({ transcriber: `Tesseract ${result.notes.tesseract} (Printed English)`, language: 'nld', params: { model: model.json.uuid } });
    expect(made!.cleanText).toBe(PAGES[0]!.join('\n'));

    const broken = await createModel(t.app, admin.auth, 'tesseract4', { label: 'Not a model', language: 'lat', file: { fileName: 'x.traineddata', bytes: tinyTraineddata() } });
    await expect(run({ imageSet: setId, allData: true, tesseract4model: broken.json.uuid })).rejects.toThrow(
      'Tesseract could not load the model "Not a model": it must be a .traineddata file of Tesseract 4 or later.',
    );
    expect((await transcriptionsOf(imageIds[0]!))[0]!.params.model).toBe(model.json.uuid);
  });

  it("acts with the owner's rights: a set they cannot change is refused, and so is an owner disabled since", async () => {
    const { setId, imageIds } = await setOfPages(PAGES.slice(0, 1));
    const stranger = await signedInUser(t.app);
    await expect(run({ imageSet: setId }, stranger.userId)).rejects.toMatchObject({ status: 404, message: `There is no image set with id ${setId}.` });
    await db().updateTable('document_image_set').set({ public_document_image_set: true }).where('id', '=', setId).execute();
    await expect(run({ imageSet: setId }, stranger.userId)).rejects.toMatchObject({ status: 403, message: expect.stringContaining('WRITE') });
    await t.app.services.users.setDisabled(stranger.userId, true);
    await expect(run({ imageSet: setId }, stranger.userId)).rejects.toMatchObject({ status: 403, message: expect.stringContaining('disabled') });
    expect(await transcriptionsOf(imageIds[0]!)).toEqual([]);
  });
});
