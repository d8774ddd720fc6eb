import { needsPyramid } from '../../platform/images/iiif-render.js';
import type { Executor } from '../executor.js';
import { failureReason, listed } from '../job-notes.js';
import { jobSet } from '../job-owner.js';

/**
 * ConvertToTiledTiff: makes the pyramidal tiled TIFF of each of the set's large images (over 4000
 * pixels on a side) that has none, so the viewer's tiles are read from the level that fits;
 * with allData, makes them again for every large image. An image whose file cannot be tiled is
 * noted and passed by. sharp does the work in libvips' own threads, off the event loop.
 */
export const convertToTiledTiff: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const { iiif } = ctx.services;
  const again = ctx.job.settings.allData;
  const images = await iiif.imagesToTile(principal, setId);
  const counts = { images: images.length, tiled: 0, hadOne: 0, small: 0 };
  const failed: { image: string; label: string; reason: string }[] = [];
  for (const [done, image] of images.entries()) {
    ctx.signal.throwIfAborted();
    await ctx.progress(done, images.length, `Tiling ${image.label}`);
    if (!needsPyramid(image.width, image.height)) counts.small += 1;
    else if (image.tiledSha256 && !again) counts.hadOne += 1;
    else {
      try {
        await iiif.ensurePyramid(image.id, { replace: again });
        counts.tiled += 1;
      } catch (err) {
        failed.push({ image: image.id, label: image.label, reason: failureReason(err, 'Its file could not be tiled') });
      }
    }
  }
  await ctx.progress(images.length, images.length, `${counts.tiled} pyramids made`);
  ctx.note({ ...counts, failed: failed.length, ...listed('failedImages', failed) });
};
