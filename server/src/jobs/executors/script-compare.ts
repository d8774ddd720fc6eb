import fs from 'node:fs/promises';
import path from 'node:path';
import type { Executor } from '../executor.js';
import { jobPrincipal, jobSetId } from '../job-owner.js';
import { outputFileName } from '../output-name.js';
import { CompareReport } from './script-compare/compare-report.js';
import { COMPARE_TASK, type ComparedTexts } from './script-compare/compare-task.js';
import { comparedPair } from './script-compare/compared-pair.js';

/** Images read per query; each is compared on its own. */
const PAGE_SIZE = 50;

/**
 * ScriptCompare: over the set's images, in order, compares two transcriptions of each (see
 * comparedPair: PAGE as the reference against another format, else corrected lines against
 * their recognised text) with the contract's text measures, in a worker thread, and gives a CSV
 * of CER, WER and character confusions to download. It only reads, so running it again just
 * makes the report again.
 */
export const scriptCompare: Executor = async (ctx) => {
  const owner = jobPrincipal(ctx);
  const setId = jobSetId(ctx);
  const { documentImages, textLines, threads } = ctx.services;
  const set = await ctx.services.imageSets.get(owner, setId);
  const report = new CompareReport();
  let total: number | null = null;
  for (let page = 0; total === null || page * PAGE_SIZE < total; page += 1) {
    const batch = await documentImages.pageOfSet(owner, setId, { page, pageSize: PAGE_SIZE, sort: 'pageorder', desc: false });
    total = batch.total;
    if (batch.details.length === 0) break;
    for (const { image, transcriptions } of batch.details) {
      ctx.signal.throwIfAborted();
      const pair = await comparedPair(transcriptions, () => textLines.groundTruthOfImage(owner, image.id));
      if ('note' in pair) report.skipped(image, pair.note);
      else report.compared(image, pair, await threads.run<ComparedTexts>({ module: COMPARE_TASK, fn: 'compareForReport', args: [pair.referenceText, pair.hypothesisText] }));
      await ctx.progress(report.totals.images, total, `Compared ${report.totals.compared} of ${report.totals.images} images`);
    }
  }
  const file = path.join(ctx.workDir, 'compare.csv');
  await fs.writeFile(file, report.csv(set.name), 'utf8');
  ctx.note({ ...report.totals, topConfusions: report.topConfusions(5) });
  await ctx.output({ path: file, fileName: outputFileName(set.name, ' comparison.csv'), mediaType: 'text/csv; charset=utf-8' });
};
