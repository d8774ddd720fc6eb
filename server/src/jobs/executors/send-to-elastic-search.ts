import { AppError } from '../../platform/errors.js';
import type { Executor } from '../executor.js';
import { jobPrincipal, jobSet } from '../job-owner.js';

/**
 * SendToElasticSearch: brings a set's search documents up to date (its images in its index, with
 * their newest text), or, without a set, every document of an index (ADMIN only, checked at
 * creation). With `allData`, or for a whole index, every document is written again (the pages'
 * analysis may be a newer version's) and the index's BM25 weights are computed again from its
 * present lengths; otherwise only the documents that changed are written. Progress per hundred
 * images.
 */
export const sendToElasticSearch: Executor = async (ctx) => {
  const { searchIndexer, searchIndices } = ctx.services;
  const indexId = ctx.job.settings.elasticSearchIndex ?? null;
  let images: string[];
  let reweigh: string | null = null;
  if (ctx.job.setId) {
    const { principal, setId } = await jobSet(ctx);
    const set = await ctx.services.imageSets.get(principal, setId);
    const setIndex = set.searchIndex?.id ?? null;
    if (indexId && setIndex !== indexId) {
      const index = await searchIndices.get(principal, indexId);
      throw new AppError(
        400,
        'bad_request',
        `The set is indexed into ${setIndex ? 'another search index' : 'no search index'}, not "${index.name}": choose the index in the set's settings.`,
      );
    }
    images = await searchIndexer.imagesOfSet(setId);
    if (ctx.job.settings.allData && setIndex) reweigh = setIndex;
  } else {
    if (!indexId) throw new AppError(400, 'bad_request', 'A SendToElasticSearch job needs an image set or a search index.');
    await searchIndices.get(jobPrincipal(ctx), indexId);
    images = [...new Set([...(await searchIndexer.imagesOfIndex(indexId)), ...(await searchIndexer.indexedImages(indexId))])];
    reweigh = indexId;
  }
  await ctx.progress(0, images.length, `Indexing ${images.length} images`);
  const result = await searchIndexer.syncImages(
    images,
    (done, total) => ctx.progress(done, total, `Indexed ${done} of ${total} images`),
    ctx.signal,
    { rewrite: reweigh !== null },
  );
  if (reweigh) await searchIndexer.reweigh(reweigh);
  ctx.note({ images: images.length, documentsWritten: result.indexed });
};
