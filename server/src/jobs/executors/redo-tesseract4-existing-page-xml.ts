import fsp from 'node:fs/promises';
import path from 'node:path';
import type { PageSource, RecognitionPage, StoreOutcome } from '../../modules/recognition/service.js';
import { cropLine, preparePage } from '../../platform/tesseract/page-image.js';
import { recogniseLines, wordsOfTsv } from '../../platform/tesseract/recognise.js';
import type { Executor, JobContext } from '../executor.js';
import { linesToRead, relayout } from '../layout-lines.js';
import { FailedPages, pageMessage, StoredPages, startTesseractJob, type TesseractJob } from '../tesseract-job.js';

type SourcePage = RecognitionPage & { source: PageSource };

/**
 * RedoTesseract4ExistingPageXML: for each image of the set with a PAGE transcription (the newest
 * one not made by this job), reads every TextLine of its layout again with Tesseract, as a single
 * line cropped to its outline's bounding box, and stores a PAGE transcription with the same
 * layout (ids, regions, outlines, baselines, reading order) and the new texts. One per source:
 * a run with another model replaces it; one with the same model (after a crash) skips it.
 */
export const redoTesseract4ExistingPageXml: Executor = async (ctx) => {
  const job = await startTesseractJob(ctx);
  const pages = await ctx.services.recognition.pageSources(job.principal, job.setId, ctx.job.type);
  const model = job.model.id ?? job.model.language;
  const todo = pages.filter((p) => p.made?.model !== model);
  const failed = new FailedPages(ctx);
  const stored = new StoredPages();
  const lines = { linesRead: 0, linesNotRead: 0 };
  for (const [index, page] of todo.entries()) {
    // Progress is the queue's heartbeat too: it may be what tells this run to stop.
    await ctx.progress(index, todo.length, pageMessage(index, todo.length, page.label));
    ctx.signal.throwIfAborted();
    try {
      const done = await redoPage(ctx, job, page, index);
      stored.add(done.stored);
      lines.linesRead += done.read;
      lines.linesNotRead += done.notRead;
    } catch (err) {
      failed.add(page, err, job.model);
    }
  }
  await ctx.progress(todo.length, todo.length, 'Done');
  ctx.note({ ...stored.toNote(pages.length, pages.length - todo.length), ...lines, ...failed.toNote() });
};

/** Reads the lines of one page's PAGE layout again and stores the result. */
async function redoPage(ctx: JobContext, job: TesseractJob, page: SourcePage, index: number) {
  const { recognition } = ctx.services;
  const layout = await recognition.layoutOf(page.source.id);
  const dir = path.join(ctx.workDir, `page-${index}`);
  await fsp.mkdir(dir);
  try {
    const prepared = await preparePage(recognition.imagePath(page), path.join(dir, 'page.tif'));
    const lines = linesToRead(layout, page, prepared);
    const crops = lines.map((_, i) => path.join(dir, `line-${i}.png`));
    for (const [i, line] of lines.entries()) await cropLine(prepared, line.box, crops[i]!);
    let words: ReturnType<typeof wordsOfTsv> = [];
    if (lines.length > 0) {
      await fsp.writeFile(path.join(dir, 'lines.txt'), `${crops.join('\n')}\n`);
      words = wordsOfTsv(await recogniseLines(path.join(dir, 'lines.txt'), job.model, ctx.signal), lines.length);
    }
    ctx.signal.throwIfAborted();
    const redone = relayout(layout, page, prepared, lines.map((line, i) => ({ line, words: words[i]! })));
    const source = page.source.sourceFileName ?? page.source.transcriber ?? 'PAGE';
    const stored: StoreOutcome = await recognition.storeLayout(
      job.principal,
      {
        setId: job.setId,
        imageId: page.id,
        transcriber: `Tesseract ${job.version} (lines of ${source})`,
        language: page.source.language ?? job.model.language,
        params: { job: ctx.job.type, jobUuid: ctx.job.uuid, source: page.source.id, model: job.model.id ?? job.model.language, tesseract: job.version },
        mark: { job: ctx.job.type, source: page.source.id },
        existing: 'replace',
        ownerId: job.principal.userId,
      },
      { format: 'page', transcriber: null, version: null, ...redone },
    );
    const total = redone.regions.reduce((n, r) => n + r.lines.length, 0);
    return { stored, read: lines.length, notRead: total - lines.length };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
