import type { Executor } from '../executor.js';
import { jobSet } from '../job-owner.js';

/**
 * RecalculateReadingOrderNew: puts every PAGE, ALTO and hOCR transcription of the set's own
 * images in reading order from its geometry (columns, then regions top to bottom, then lines),
 * each transcription in one transaction with its text lines renumbered, their ground truth kept.
 * Running it again finds each layout in order already and writes nothing.
 */
export const recalculateReadingOrderNew: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const { readingOrder } = ctx.services;
  const images = await readingOrder.imagesOfSet(principal, setId);
  const counts = { images: images.length, transcriptions: 0, reordered: 0, alreadyInOrder: 0 };
  for (const [done, image] of images.entries()) {
    ctx.signal.throwIfAborted();
    await ctx.progress(done, images.length, `Reading order of ${image.label}`);
    for (const transcription of image.transcriptions) {
      const outcome = await readingOrder.reorder(principal, image.id, transcription.id);
      // A transcription deleted meanwhile is simply no longer there to order.
      if (outcome === 'gone') continue;
      counts.transcriptions += 1;
      if (outcome === 'changed') counts.reordered += 1;
      else counts.alreadyInOrder += 1;
    }
  }
  await ctx.progress(images.length, images.length, `${counts.reordered} of ${counts.transcriptions} transcriptions put in a new order`);
  ctx.note(counts);
};
