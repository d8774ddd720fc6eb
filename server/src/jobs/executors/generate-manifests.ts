import { iiifImageInfoSchema, iiifManifestSchema } from '@pim/contract';
import { imageManifestUrl, setManifestUrl } from '../../modules/iiif/links.js';
import { presentImageInfo, presentImageManifest, presentSetManifest } from '../../modules/iiif/presenter.js';
import type { Executor } from '../executor.js';
import { listed } from '../job-notes.js';
import { jobSet } from '../job-owner.js';

/**
 * GenerateManifests: builds the set's IIIF manifest and each image's manifest and info.json as the
 * IIIF routes do (checked against the contract's schemas), and checks that each image can be
 * served: its stored file decodes whole at the size its record gives. An image that cannot is
 * marked broken (`document_image.broken`) and noted with the reason; SetBrokenNull clears the mark
 * once it reads well again. A set without images has no manifest: the job fails saying so.
 */
export const generateManifests: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const { iiif, imageChecks, serverLinks: links } = ctx.services;
  const { set, images } = await iiif.setForManifest(principal, setId);
  iiifManifestSchema.parse(presentSetManifest(setManifestUrl(links, set.id), set, images, links));
  const served = new Map(images.map((image) => [image.id, image]));
  const checked = await imageChecks.imagesOfSet(principal, setId, { onlyBroken: false });
  const broken: { image: string; label: string; reason: string }[] = [];
  let newlyBroken = 0;
  let markedButReadable = 0;
  for (const [done, image] of checked.entries()) {
    ctx.signal.throwIfAborted();
    await ctx.progress(done, checked.length, `Checking ${image.label}`);
    const record = served.get(image.id);
    // Added after the set's manifest was built: the next run covers it.
    if (!record) continue;
    iiifManifestSchema.parse(presentImageManifest(imageManifestUrl(links, image.id), record, links));
    iiifImageInfoSchema.parse(presentImageInfo(record, links));
    const fault = await imageChecks.faultOf(image);
    if (!fault) {
      if (image.broken) markedButReadable += 1;
      continue;
    }
    broken.push({ image: image.id, label: image.label, reason: fault });
    if (!image.broken && (await imageChecks.markBroken(principal, setId, image.id, true))) newlyBroken += 1;
  }
  await ctx.progress(checked.length, checked.length, `${checked.length - broken.length} of ${checked.length} images can be served`);
  ctx.note({
    images: checked.length,
    manifests: served.size + 1,
    broken: broken.length,
    newlyBroken,
    ...listed('brokenImages', broken),
    // SetBrokenNull clears these marks.
    ...(markedButReadable > 0 && { markedBrokenButReadable: markedButReadable }),
  });
};
