import { randomUUID } from 'node:crypto';
import { BUILTIN_SIMILARITY_MODEL, JOB_DEFAULTS } from '@pim/contract';
import { visibilityScope } from '../../platform/auth/policy.js';
import { badRequest } from '../../platform/errors.js';
import { confusionMatrix } from '../../modules/similarity/confusion.js';
import { describeHandwriting, type LineImage } from '../../modules/similarity/descriptor.js';
import { readLineImages } from '../../modules/similarity/line-image.js';
import { openOnnxEmbedder } from '../../modules/similarity/onnx-embedder.js';
import type { NewSnippet } from '../../modules/similarity/repository.js';
import type { Executor, JobContext } from '../executor.js';
import { jobSet } from '../job-owner.js';

/** Images cut and described per step: their snippets are replaced in one transaction. */
const IMAGES_PER_STEP = 10;

/** Turns line images into feature vectors: the built-in descriptor, or an ONNX model. */
interface Describer {
  describe(lines: LineImage[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/**
 * SiameseNetwork, applied here: every text line with an outline of the newest transcription of
 * each image of the set (and its sub-sets) becomes a snippet with a feature vector, from the
 * built-in handwriting descriptor or an uploaded ONNX model; a run replaces the model's snippets of
 * those images and keeps the ids of lines it cut before. With a label field, each snippet is
 * tagged with its image's value and the job ends with the model's confusion matrix on them.
 * Training, and models this server cannot run, are left to remote workers (the queue never gives
 * them to the built-in worker).
 */
export const siameseNetwork: Executor = async (ctx) => {
  const { principal, setId } = await jobSet(ctx);
  const settings = ctx.job.settings;
  if (settings.training) throw badRequest('Training a Siamese network needs a remote GPU worker; this server only applies models.');
  const model = settings.siameseNetworkModelId ?? BUILTIN_SIMILARITY_MODEL;
  const { similarityRepository: repo, metadata, similarity } = ctx.services;
  const images = [...(await repo.imagesOfSetTree(setId, visibilityScope(principal, false)))].sort();
  const labelField = settings.pimFieldSiameseLabel;
  const labels = labelField ? await metadata.valuesOfImages(principal, labelField, images) : new Map<string, string[]>();
  const describer = await describerFor(ctx, model);
  let snippets = 0;
  let withoutLines = 0;
  try {
    for (let start = 0; start < images.length; start += IMAGES_PER_STEP) {
      ctx.signal.throwIfAborted();
      const batch = images.slice(start, start + IMAGES_PER_STEP);
      const lines = await repo.linesToCut(batch);
      const files = await repo.imageFiles(batch);
      const made: NewSnippet[] = [];
      for (const imageId of batch) {
        const ofImage = lines.filter((l) => l.imageId === imageId);
        if (ofImage.length === 0) {
          withoutLines += 1;
          continue;
        }
        const crops = await readLineImages(ctx.services.files.pathOf(files.get(imageId)!), ofImage.map((l) => l.region), {
          binarize: settings.siameseBinarizeOtsu ?? JOB_DEFAULTS.siameseBinarizeOtsu,
        });
        const vectors = await describer.describe(crops);
        const tag = labels.get(imageId)?.[0] ?? null;
        ofImage.forEach((line, i) => made.push({ ...line, id: randomUUID(), tag, features: Array.from(vectors[i]!) }));
      }
      ctx.signal.throwIfAborted();
      await repo.replaceSnippets(model, batch, made, ctx.job.id);
      snippets += made.length;
      const done = Math.min(start + IMAGES_PER_STEP, images.length);
      await ctx.progress(done, images.length, `Described ${snippets} lines of ${done} of ${images.length} images`);
    }
  } finally {
    await describer.close();
  }
  const note: Record<string, unknown> = { model, images: images.length, imagesWithoutLines: withoutLines, snippets };
  // Read the model's vectors into this server's memory now, so the first search after the job
  // does not wait for them (3 s at 100,000 snippets).
  const index = await similarity.index(model);
  if (labelField) {
    const tags = await repo.tagsOf(model, images);
    const rows = new Map<number, string>();
    for (const [id, tag] of tags) {
      const row = index.rowOf(id);
      if (row >= 0) rows.set(row, tag);
    }
    const result = confusionMatrix(index, rows);
    if (result.labels.length < 2) {
      note.confusionMatrix = 'Not made: the label field gives fewer than two values to the set\'s images with lines.';
    } else {
      const id = randomUUID();
      await repo.insertConfusionMatrix({ id, model, setId, jobId: ctx.job.id, ownerId: ctx.job.ownerId, ...result });
      note.confusionMatrix = id;
      note.accuracy = result.accuracy;
    }
  }
  ctx.note(note);
};

async function describerFor(ctx: JobContext, model: string): Promise<Describer> {
  if (model === BUILTIN_SIMILARITY_MODEL) {
    return { describe: async (lines) => lines.map((line) => describeHandwriting(line)), close: async () => {} };
  }
  const record = await ctx.services.models.get(ctx.job.principal, 'siamesenetwork', model);
  if (record.properties.modelFormat !== 'ONNX') {
    throw badRequest(`The model "${record.label}" is a ${String(record.properties.modelFormat ?? 'model')} that only a remote worker can run.`);
  }
  const settings = ctx.job.settings;
  const embedder = await openOnnxEmbedder(ctx.services.files.pathOf(record.file.sha256), {
    width: settings.imgWidth ?? JOB_DEFAULTS.imgWidth,
    height: settings.imgHeight ?? JOB_DEFAULTS.imgHeight,
    channels: settings.siameseChannels ?? JOB_DEFAULTS.siameseChannels,
  });
  return { describe: (lines) => embedder.embed(lines), close: () => embedder.close() };
}
