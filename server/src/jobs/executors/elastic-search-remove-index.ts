import { AppError } from '../../platform/errors.js';
import type { Executor } from '../executor.js';
import { jobPrincipal } from '../job-owner.js';

/**
 * ElasticSearchRemoveIndex: empties a search index (ADMIN only, checked at creation). The index
 * and the sets that name it stay: their next change, or a SendToElasticSearch, fills it again.
 */
export const elasticSearchRemoveIndex: Executor = async (ctx) => {
  const indexId = ctx.job.settings.elasticSearchIndex;
  if (!indexId) throw new AppError(400, 'bad_request', 'An ElasticSearchRemoveIndex job needs a search index.');
  const index = await ctx.services.searchIndices.get(jobPrincipal(ctx), indexId);
  await ctx.progress(0, 1, `Emptying ${index.name}`);
  const removed = await ctx.services.searchIndexer.clear(index);
  await ctx.progress(1, 1, `Emptied ${index.name}`);
  ctx.note({ documentsRemoved: removed });
};
