import { needsPyramid } from '../../platform/images/iiif-render.js';
import { AppError } from '../../platform/errors.js';
import type { SetPdf } from '../../modules/uploads/pdf-pages-service.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Executor, JobContext } from '../executor.js';
import { failureReason, listed } from '../job-notes.js';
import { jobSet } from '../job-owner.js';

interface Failure {
  file: string;
  page?: number;
  reason: string;
}

/**
 * SplitPDF: adds the pages of the set's PDFs as page images, one page at a time in the worker
 * threads, with the upload's limits. Without allData only the PDFs whose pages are still to be
 * added (kept by an upload for this job); with allData every PDF of the set, adding any page
 * the set lacks. A page the set holds already (the same PDF file and page number) is passed by,
 * never added twice, so a run after a crash goes on where the last one stopped. A PDF or page that
 * cannot be read is noted and passed by; large pages get their tiled pyramid as they come in.
 */
export const splitPdf: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const { pdfPages } = ctx.services;
  const failures: Failure[] = [];
  const plans: { pdf: SetPdf; pages: number; present: Set<number> }[] = [];
  // Every PDF's pages are counted first, so the progress has its total from the start.
  for (const pdf of await pdfPages.pdfsOfSet(principal, setId, { all: ctx.job.settings.allData })) {
    ctx.signal.throwIfAborted();
    try {
      plans.push({ pdf, pages: await pdfPages.pageCount(pdf), present: await pdfPages.pagesInSet(principal, setId, pdf) });
    } catch (err) {
      if (!(err instanceof AppError && err.status < 500)) throw err;
      failures.push({ file: pdf.originalName, reason: err.message });
    }
  }
  const total = plans.reduce((sum, p) => sum + p.pages, 0);
  const counts = { pdfs: plans.length, pages: total, added: 0, present: 0 };
  let done = 0;
  for (const { pdf, pages, present } of plans) {
    for (let index = 0; index < pages; index += 1, done += 1) {
      ctx.signal.throwIfAborted();
      await ctx.progress(done, total, `${pdf.originalName}: page ${index + 1} of ${pages}`);
      const outcome = present.has(index + 1) ? 'present' : await addPage(ctx, principal, setId, pdf, index, failures);
      if (outcome !== 'failed') counts[outcome] += 1;
    }
    await pdfPages.pagesDone(principal, setId, pdf);
  }
  await ctx.progress(total, total, `${counts.added} pages added`);
  ctx.note({ ...counts, failed: failures.length, ...listed('failures', failures) });
};

/** Adds one page: 'present' when the set got it meanwhile, 'failed' (noted) when it cannot be rendered. */
async function addPage(
  ctx: JobContext,
  principal: Principal,
  setId: string,
  pdf: SetPdf,
  index: number,
  failures: Failure[],
): Promise<'added' | 'present' | 'failed'> {
  let added;
  try {
    added = await ctx.services.pdfPages.addPage(principal, setId, pdf, index);
  } catch (err) {
    // A page that cannot be rendered within the limits is the PDF's fault (400); anything else is not.
    if (!(err instanceof AppError && err.status === 400)) throw err;
    failures.push({ file: pdf.originalName, page: index + 1, reason: err.message });
    return 'failed';
  }
  if (added.outcome === 'added' && needsPyramid(added.image.width, added.image.height)) {
    await ctx.services.iiif.ensurePyramid(added.image.id).catch((err: unknown) => {
      failures.push({ file: pdf.originalName, page: index + 1, reason: failureReason(err, 'The page was added, but could not be tiled') });
    });
  }
  return added.outcome;
}
