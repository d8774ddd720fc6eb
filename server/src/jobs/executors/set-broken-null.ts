import type { Executor } from '../executor.js';
import { jobSet } from '../job-owner.js';
import { listed } from '../job-notes.js';

/**
 * SetBrokenNull: checks the set's images marked broken again (decoding each whole, as the upload
 * does, at the size its record gives) and clears the mark of those that read well. Notes how many
 * were fixed and which stay broken, and why.
 */
export const setBrokenNull: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const { imageChecks } = ctx.services;
  const images = await imageChecks.imagesOfSet(principal, setId, { onlyBroken: true });
  let fixed = 0;
  const stillBroken: { image: string; label: string; reason: string }[] = [];
  for (const [done, image] of images.entries()) {
    ctx.signal.throwIfAborted();
    await ctx.progress(done, images.length, `Checking ${image.label}`);
    const fault = await imageChecks.faultOf(image);
    if (fault) stillBroken.push({ image: image.id, label: image.label, reason: fault });
    else if (await imageChecks.markBroken(principal, setId, image.id, false)) fixed += 1;
  }
  await ctx.progress(images.length, images.length, `${fixed} of ${images.length} broken images read well again`);
  ctx.note({ checked: images.length, fixed, stillBroken: stillBroken.length, ...listed('stillBrokenImages', stillBroken) });
};
