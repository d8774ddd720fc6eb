import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJobs } from '../../modules/uploads/service.js';
import { expectOwnerRights } from '../../test-support/executor-access.js';
import { runExecutor } from '../../test-support/job-context.js';
import { pdfWithImage } from '../../test-support/pdf-files.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, incoming, testImage, testPdf, uploadServiceOf } from '../../test-support/upload-files.js';
import { splitPdf } from './split-pdf.js';

const TYPE = 'SplitPDF';

describe('SplitPDF and the upload that leaves a long PDF to it', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** The upload service with the server's job queue, splitting PDFs of more than `pdfPagesInRequest` pages in a job. */
  const uploadsWithJobs = (pdfPagesInRequest = 2) => uploadServiceOf(t.app, { hooks: { jobs: t.app.services.uploads.hooks.jobs }, limits: { pdfPagesInRequest } });
  /** The jobs queued on the set (this test app runs none), oldest first. */
  const queuedOn = async (setId: string) =>
    (await t.app.database.db.selectFrom('job').select(['id', 'type', 'owner_id', 'state']).where('set_id', '=', setId).orderBy('id').execute()).map((j) => ({
      type: j.type,
      ownerId: j.owner_id,
      state: j.state,
    }));
  const pagesOf = (setId: string) =>
    t.app.database.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .select(['d.id', 'd.label', 'd.page_number', 'd.source_pdf_file_id', 'd.tiled_file_id'])
      .where('m.set_id', '=', setId)
      .orderBy('m.position')
      .execute();
  const pending = async (setId: string) =>
    (await t.app.database.db.selectFrom('image_set_file').select(['file_id', 'pages_pending']).where('set_id', '=', setId).where('kind', '=', 'pdf').execute()).map(
      (f) => f.pages_pending,
    );
  const split = (setId: string, allData = false, onProgress?: Parameters<typeof runExecutor>[3]) =>
    runExecutor(t.app, splitPdf, { type: TYPE, settings: { imageSet: setId, allData }, ownerId: owner.userId }, onProgress);

  it('keeps a long PDF and queues a SplitPDF job, which adds its pages with progress, each once', async () => {
    const setId = await createSet(t.app, owner.auth, 'Report');
    const result = await uploadsWithJobs().upload(owner.principal, setId, incoming('report.pdf', await testPdf(5)));
    const [job] = await t.app.database.db.selectFrom('job').select('id').where('set_id', '=', setId).execute();
    expect(result).toEqual({ kind: 'pdf', fileName: 'report.pdf', documentImages: [], transcriptions: [], message: `report.pdf: 5 pages will be added by job #${job!.id}.` });
    expect(await queuedOn(setId)).toEqual([{ type: 'SplitPDF', ownerId: owner.userId, state: 'queued' }]);
    expect(await pagesOf(setId)).toEqual([]);
    expect(await pending(setId)).toEqual([true]);

    const run = await split(setId);
    const pages = await pagesOf(setId);
    expect(pages.map((p) => [p.label, p.page_number])).toEqual([1, 2, 3, 4, 5].map((n) => [`report p. ${n}`, n]));
    const pdfFileId = pages[0]!.source_pdf_file_id;
    expect(pdfFileId).not.toBeNull();
    expect(pages.every((p) => p.source_pdf_file_id === pdfFileId)).toBe(true);
    expect(run.progress.slice(0, 2)).toEqual([
      { done: 0, total: 5, message: 'report.pdf: page 1 of 5' },
      { done: 1, total: 5, message: 'report.pdf: page 2 of 5' },
    ]);
    expect(run.progress.at(-1)).toEqual({ done: 5, total: 5, message: '5 pages added' });
    expect(run.notes).toEqual({ pdfs: 1, pages: 5, added: 5, present: 0, failed: 0 });
    expect(await pending(setId)).toEqual([false]);
    // The pages are served like any other image.
    const thumbnail = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${pages[4]!.id}/thumbnail`, headers: owner.auth });
    expect(thumbnail.status).toBe(200);

    // Without allData, a PDF whose pages were added is passed by; with it, only a page the set lacks is added again.
    expect((await split(setId)).notes).toEqual({ pdfs: 0, pages: 0, added: 0, present: 0, failed: 0 });
    const removed = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${setId}/documentimages`, headers: owner.auth, payload: { uuid: pages[2]!.id } });
    expect(removed.status).toBe(200);
    expect((await split(setId, true)).notes).toEqual({ pdfs: 1, pages: 5, added: 1, present: 4, failed: 0 });
    expect((await pagesOf(setId)).map((p) => p.page_number)).toEqual([1, 2, 4, 5, 3]);
  });

  it('keeps the PDF when its job cannot be queued, and says to run SplitPDF', async () => {
    const setId = await createSet(t.app, owner.auth, 'No queue');
    const failures: string[] = [];
    const broken: UploadJobs = { queue: () => Promise.reject(new Error('the queue is down')) };
    const uploads = uploadServiceOf(t.app, { hooks: { jobs: broken, onBackgroundError: (_err, what) => failures.push(what) }, limits: { pdfPagesInRequest: 2 } });
    const result = await uploads.upload(owner.principal, setId, incoming('kept.pdf', await testPdf(3)));
    expect(result.message).toBe('kept.pdf was kept, but its 3 pages could not be queued to be added: run a SplitPDF job on this set.');
    expect(failures).toEqual([`queueing the pages of kept.pdf in set ${setId} failed`]);
    expect((await split(setId)).notes).toMatchObject({ pdfs: 1, added: 3 });
  });

  it('leaves a second long PDF to the SplitPDF job that waits already, which adds the pages of both', async () => {
    const setId = await createSet(t.app, owner.auth, 'Two reports');
    const first = await uploadsWithJobs().upload(owner.principal, setId, incoming('report.pdf', await testPdf(3)));
    const second = await uploadsWithJobs().upload(owner.principal, setId, incoming('annex.pdf', await testPdf(3)));
    const [job] = await t.app.database.db.selectFrom('job').select('id').where('set_id', '=', setId).execute();
    expect([first.message, second.message]).toEqual([`report.pdf: 3 pages will be added by job #${job!.id}.`, `annex.pdf: 3 pages will be added by job #${job!.id}.`]);
    expect(await queuedOn(setId)).toHaveLength(1);
    expect((await split(setId)).notes).toMatchObject({ pdfs: 2, added: 6 });
  });

  it('goes on after a stop where the last run ended, adding no page twice', async () => {
    const setId = await createSet(t.app, owner.auth, 'Stopped');
    await uploadsWithJobs().upload(owner.principal, setId, incoming('long.pdf', await testPdf(4)));
    const stopped = split(setId, false, (run) => {
      // Stopped while page 2 is under way: that page is finished, no other is begun.
      if (run.progress.length === 2) run.controller.abort(new Error('the server is stopping'));
    });
    await expect(stopped).rejects.toThrow('the server is stopping');
    expect((await pagesOf(setId)).map((p) => p.page_number)).toEqual([1, 2]);
    expect(await pending(setId)).toEqual([true]);

    const resumed = await split(setId);
    expect(resumed.notes).toEqual({ pdfs: 1, pages: 4, added: 2, present: 2, failed: 0 });
    expect((await pagesOf(setId)).map((p) => p.page_number)).toEqual([1, 2, 3, 4]);
  });

  it('adds the pages of a short PDF in the request, and queues the pyramids of large images instead of making them in the background', async () => {
    const setId = await createSet(t.app, owner.auth, 'Short');
    const uploads = uploadsWithJobs();
    const short = await uploads.upload(owner.principal, setId, incoming('short.pdf', await testPdf(2)));
    expect(short.message).toBe('short.pdf: 2 pages were added to the set.');
    expect(await pending(setId)).toEqual([false]);
    await uploads.upload(owner.principal, setId, incoming('small.png', await testImage('png', 300, 200)));
    expect(await queuedOn(setId)).toEqual([]);
    await uploads.upload(owner.principal, setId, incoming('large.jpg', await testImage('jpeg', 4200, 300)));
    expect(await queuedOn(setId)).toEqual([{ type: 'ConvertToTiledTiff', ownerId: owner.userId, state: 'queued' }]);
    await uploads.upload(owner.principal, setId, incoming('larger.jpg', await testImage('jpeg', 4400, 300)));
    expect(await queuedOn(setId)).toHaveLength(1);
    // The PDF was split in the request: SplitPDF with allData finds every page there.
    expect((await split(setId, true)).notes).toEqual({ pdfs: 1, pages: 2, added: 0, present: 2, failed: 0 });
  });

  it('makes the pyramid of a large page as it adds it', async () => {
    const setId = await createSet(t.app, owner.auth, 'Wide pages');
    const pdf = await PDFDocument.create();
    pdf.addPage([1800, 100]);
    pdf.addPage([300, 100]);
    await uploadsWithJobs(0).upload(owner.principal, setId, incoming('wide.pdf', Buffer.from(await pdf.save())));
    expect((await split(setId)).notes).toMatchObject({ added: 2, failed: 0 });
    expect((await pagesOf(setId)).map((p) => p.tiled_file_id !== null)).toEqual([true, false]);
  });

  it('notes a page that cannot be rendered within the limits and goes on', async () => {
    const setId = await createSet(t.app, owner.auth, 'Huge image');
    await uploadsWithJobs(0).upload(owner.principal, setId, incoming('huge.pdf', await pdfWithImage(65000, 65000)));
    const run = await split(setId);
    expect(run.notes).toEqual({
      pdfs: 1,
      pages: 1,
      added: 0,
      present: 0,
      failed: 1,
      failures: [{ file: 'huge.pdf', page: 1, reason: 'Page 1 of this PDF holds an image of 65,000 x 65,000 pixels; the limit is 250,000,000 pixels.' }],
    });
    expect(await pagesOf(setId)).toEqual([]);
    expect(await pending(setId)).toEqual([false]);
  });

  it("acts with its owner's rights", async () => {
    let setOf = '';
    await expectOwnerRights(t, splitPdf, TYPE, {
      fill: async (someone, setId) => {
        setOf = setId;
        await uploadsWithJobs().upload(someone.principal, setId, incoming('private.pdf', await testPdf(3)));
      },
      state: async () => [await pagesOf(setOf), await pending(setOf)],
    });
  });
});
