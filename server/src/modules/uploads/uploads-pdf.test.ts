import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { PDF_GATE_CHANNEL } from '../../test-support/gated-pdf-render.js';
import { pdfWithImage, pdfWithSlowPage } from '../../test-support/pdf-files.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, incoming, testPdf, upload, uploadRowCounts, uploadServiceOf } from '../../test-support/upload-files.js';
import { DAMAGED_PDF, type PdfLimits, PdfSplitter, UNREADABLE_PDF } from './pdf-split.js';

/** A PDF of `pages` blank A4 pages. */
async function blankPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) pdf.addPage([595, 842]);
  return Buffer.from(await pdf.save());
}

describe('uploads: the cost of a PDF', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth);
  });
  afterAll(() => t.close());

  /** The upload service with other PDF limits (or another renderer module), on the app's threads, database and files. */
  const uploadsWith = (limits: Partial<PdfLimits>, renderer?: URL) => {
    const splitter = new PdfSplitter(t.app.services.threads, { ...t.app.services.uploads.pdfSplitter.limits, ...limits }, renderer);
    return uploadServiceOf(t.app, { pdfSplitter: splitter });
  };
  const nothingLeft = async (before: number[]) => {
    expect(await uploadRowCounts(t.app)).toEqual(before);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  };

  it('reads its limits from the environment, with defaults', () => {
    const base = { PIM_DATA_DIR: t.dataDir };
    expect(loadConfig(base)).toMatchObject({ pdfMaxPages: 500, pdfMaxPagePixels: 36_000_000, pdfPageTimeoutMs: 60_000 });
    const set = loadConfig({ ...base, PIM_PDF_MAX_PAGES: '20', PIM_PDF_MAX_PAGE_MEGAPIXELS: '2.5', PIM_PDF_PAGE_TIMEOUT_S: '1.5' });
    expect(set).toMatchObject({ pdfMaxPages: 20, pdfMaxPagePixels: 2_500_000, pdfPageTimeoutMs: 1500 });
    expect(() => loadConfig({ ...base, PIM_PDF_MAX_PAGES: '0' })).toThrow(/PIM_PDF_MAX_PAGES must be at least 1/);
    expect(() => loadConfig({ ...base, PIM_PDF_PAGE_TIMEOUT_S: 'soon' })).toThrow(/PIM_PDF_PAGE_TIMEOUT_S must be a number of seconds/);
  });

  it('refuses a PDF with more pages than the limit with 413, before rendering any', async () => {
    const before = await uploadRowCounts(t.app);
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'blank.pdf', bytes: await blankPdf(2000) }]);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      error: 'too_large',
      message: 'This PDF has 2,000 pages; the limit is 500 pages per upload. Split it into smaller PDFs.',
    });
    await nothingLeft(before);
  });

  it('renders a page with at most the pixels allowed per page, keeping its proportions', async () => {
    const result = await uploadsWith({ maxPagePixels: 1_000_000 }).upload(owner.principal, setId, incoming('small.pdf', await testPdf(1)));
    const image = await t.app.database.db
      .selectFrom('document_image')
      .select(['width', 'height'])
      .where('id', '=', result.documentImages[0]!.uuid)
      .executeTakeFirstOrThrow();
    expect(image.width * image.height).toBeLessThanOrEqual(1_000_000);
    expect(image.width * image.height).toBeGreaterThan(990_000);
    expect(image.height / image.width).toBeCloseTo(842 / 595, 2);
  });

  it('refuses a page holding an image larger than the limit before decoding it, naming the page and the size', async () => {
    const before = await uploadRowCounts(t.app);
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'huge.pdf', bytes: await pdfWithImage(65000, 65000) }]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Page 1 of this PDF holds an image of 65,000 x 65,000 pixels; the limit is 250,000,000 pixels.');
    await nothingLeft(before);
  });

  it('stops a page that renders longer than the time limit, naming the page, and renders the next PDF in a fresh thread', async () => {
    const before = await uploadRowCounts(t.app);
    const uploads = uploadsWith({ pageTimeoutMs: 2000 });
    await expect(uploads.upload(owner.principal, setId, incoming('slow.pdf', pdfWithSlowPage()))).rejects.toMatchObject({
      status: 400,
      message: 'Page 1 of this PDF could not be rendered within the limit of 2 seconds.',
    });
    await nothingLeft(before);
    // The pool replaced the stopped thread; the next PDF renders there, under the usual limit (2 s
    // would be a measure of the machine's speed, not of the rule).
    const next = await uploadsWith({}).upload(owner.principal, setId, incoming('next.pdf', await testPdf(1)));
    expect(next.documentImages).toHaveLength(1);
  });

  it('answers other requests while a page renders in its thread', async () => {
    const gate = new BroadcastChannel(PDF_GATE_CHANNEL);
    try {
      const rendering = new Promise<unknown>((resolve) => {
        gate.onmessage = (event) => resolve((event as MessageEvent).data);
      });
      const uploads = uploadsWith({}, new URL('../../test-support/gated-pdf-render.js', import.meta.url));
      let finished = false;
      const uploading = uploads.upload(owner.principal, setId, incoming('held.pdf', await testPdf(1))).finally(() => {
        finished = true;
      });
      expect(await rendering).toBe('rendering page 1');
      // Page 1 is in its thread and waits there for the gate; the server answers meanwhile.
      const other = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}`, headers: owner.auth });
      expect(other.status).toBe(200);
      expect(finished).toBe(false);
      gate.postMessage('go on');
      expect((await uploading).documentImages.map((d) => d.name)).toEqual(['held p. 1']);
    } finally {
      gate.close();
    }
  });

  it('says that a cut-off PDF is damaged', async () => {
    const whole = await testPdf(3);
    const before = await uploadRowCounts(t.app);
    const cases = [
      { label: 'cut in half', bytes: whole.subarray(0, Math.floor(whole.length / 2)), message: DAMAGED_PDF },
      { label: 'cut after its header', bytes: whole.subarray(0, whole.indexOf('\n', 10) + 1), message: UNREADABLE_PDF },
    ];
    for (const c of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'cut.pdf', bytes: c.bytes }]);
      expect(res.status, c.label).toBe(400);
      expect(res.json.message, c.label).toBe(c.message);
    }
    await nothingLeft(before);
  });
});
