import fsp from 'node:fs/promises';
import path from 'node:path';
import type { RecognitionPage, StoreOutcome } from '../../modules/recognition/service.js';
import { rewriteHocr } from '../../platform/tesseract/hocr-rewrite.js';
import { preparePage } from '../../platform/tesseract/page-image.js';
import { recognisePage } from '../../platform/tesseract/recognise.js';
import type { Executor, JobContext } from '../executor.js';
import { FailedPages, pageMessage, StoredPages, startTesseractJob, type TesseractJob } from '../tesseract-job.js';

/**
 * Tesseract4Hocr: reads every image of the set with Tesseract (one child process per page) and
 * stores each page's hOCR as a transcription, as an uploaded hOCR file is stored: the file kept,
 * its lines made text lines with their confidences. Without allData only images without a
 * transcription of this job type are read; with it all are, each replacing its earlier one, but
 * never twice in one run: after a crash the run goes on where it stopped. Uploaded transcriptions
 * are never touched. A page Tesseract cannot read is noted and skipped.
 */
export const tesseract4Hocr: Executor = async (ctx) => {
  const job = await startTesseractJob(ctx);
  const { allData } = ctx.job.settings;
  const pages = await ctx.services.recognition.pages(job.principal, job.setId, { job: ctx.job.type });
  const todo = pages.filter((p) => !p.made || (allData && p.made.jobUuid !== ctx.job.uuid));
  const failed = new FailedPages(ctx);
  const stored = new StoredPages();
  for (const [index, page] of todo.entries()) {
    // Progress is the queue's heartbeat too: it may be what tells this run to stop.
    await ctx.progress(index, todo.length, pageMessage(index, todo.length, page.label));
    ctx.signal.throwIfAborted();
    try {
      stored.add(await recognise(ctx, job, page, index));
    } catch (err) {
      failed.add(page, err, job.model);
    }
  }
  await ctx.progress(todo.length, todo.length, 'Done');
  ctx.note({ ...stored.toNote(pages.length, pages.length - todo.length), ...failed.toNote() });
};

/** Reads one page and stores its hOCR. */
async function recognise(ctx: JobContext, job: TesseractJob, page: RecognitionPage, index: number): Promise<StoreOutcome> {
  const hocr = await readPage(ctx, job, page, index);
  ctx.signal.throwIfAborted();
  const { allData } = ctx.job.settings;
  return ctx.services.recognition.storeHocr(
    job.principal,
    {
      setId: job.setId,
      imageId: page.id,
      transcriber: `Tesseract ${job.version} (${job.model.name})`,
      language: job.model.language,
      params: { job: ctx.job.type, jobUuid: ctx.job.uuid, model: job.model.id ?? job.model.language, tesseract: job.version },
      mark: { job: ctx.job.type },
      // Another run may have stored one since the list was made: without allData, that one stands.
      existing: allData ? 'replace' : 'keep',
      ownerId: job.principal.userId,
    },
    { xml: hocr, fileName: `${page.label}.hocr` },
  );
}

/** Tesseract's hOCR of one page, in the image's own pixels and naming the image's file. */
async function readPage(ctx: JobContext, job: TesseractJob, page: RecognitionPage, index: number): Promise<string> {
  const prepared = await preparePage(ctx.services.recognition.imagePath(page), path.join(ctx.workDir, `page-${index}.tif`));
  try {
    const hocr = await recognisePage(prepared.path, job.model, ctx.signal);
    return rewriteHocr(hocr, { imageName: page.file.originalName, scaleX: prepared.scaleX, scaleY: prepared.scaleY });
  } finally {
    await fsp.rm(prepared.path, { force: true });
  }
}
