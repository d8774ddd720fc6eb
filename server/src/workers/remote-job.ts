import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ClaimedWorkerJob, ProgressReport, WorkerClient } from './client.js';
import { imageFileNames, sortOutputs, zipFiles } from './job-command.js';
import type { JobModels } from './job-models.js';
import type { JobRunner } from './runners.js';

/** What a job's run needs from the loop around it: its calls tried again, its progress reported. */
export interface JobRunContext {
  client: WorkerClient;
  workDir: string;
  models: JobModels;
  signal: AbortSignal;
  retrying: <T>(what: string, call: () => Promise<T>) => Promise<T>;
  report: (progress: ProgressReport) => Promise<void>;
}

/** Media types of the single output files a tool commonly writes; anything else is sent as bytes. */
const MEDIA_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.epub': 'application/epub+zip',
  '.pdf': 'application/pdf',
};

/**
 * A job run once by a `--job-command`: every image the claim lists downloaded into `{imagesDir}`,
 * the command run over it, then what it wrote in `{outputDir}` uploaded: files named after an
 * image as their transcriptions, the rest as the job's download (several zipped into one).
 * Returns the job's result: the counts of what was stored.
 */
export async function runWholeJob(job: ClaimedWorkerJob, runner: JobRunner, ctx: JobRunContext): Promise<Record<string, unknown>> {
  const { client, retrying, signal } = ctx;
  const total = job.images.length;
  const imagesDir = path.join(ctx.workDir, 'images');
  const outputDir = path.join(ctx.workDir, 'output');
  await fsp.mkdir(imagesDir);
  await fsp.mkdir(outputDir);
  const names = imageFileNames(job.images);
  for (const [index, image] of job.images.entries()) {
    await ctx.report({ done: index, total, message: `Downloading image ${index + 1} of ${total}: ${image.label}` });
    signal.throwIfAborted();
    await retrying(`downloading ${image.label}`, () => client.downloadImage(job, image.uuid, path.join(imagesDir, names[index]!)));
  }
  await ctx.report({ done: total, total, message: `Running the ${job.type} command` });
  signal.throwIfAborted();
  await runner.runJob({ job, imagesDir, outputDir, workDir: ctx.workDir, models: ctx.models, signal });

  const { transcriptions, others } = await sortOutputs(outputDir, job.images, names);
  const counts = { images: total, stored: 0, replaced: 0, kept: 0, outputFiles: others.length };
  for (const [index, file] of transcriptions.entries()) {
    await ctx.report({ done: total, total, message: `Uploading transcription ${index + 1} of ${transcriptions.length}` });
    signal.throwIfAborted();
    const fileName = `${file.image.label}${path.extname(file.name)}`;
    const stored = await retrying(`uploading the transcription of ${file.image.label}`, () => client.uploadTranscription(job, file.image.uuid, file.path, fileName));
    if (stored.kind === 'transcription') counts[stored.outcome] += 1;
  }
  if (others.length > 0) {
    await ctx.report({ done: total, total, message: others.length === 1 ? 'Uploading the output file' : `Zipping and uploading ${others.length} output files` });
    signal.throwIfAborted();
    const single = others.length === 1 ? others[0]! : undefined;
    const file = single?.path ?? path.join(ctx.workDir, `${job.type}-${job.id}.zip`);
    const fileName = single ? path.basename(single.name) : path.basename(file);
    if (!single) await zipFiles(others, file);
    const mediaType = MEDIA_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
    await retrying('uploading the output', () => client.uploadOutput(job, file, mediaType, fileName));
  }
  const written = transcriptions.length + others.length;
  return { ...counts, ...(written === 0 && { note: `The ${job.type} command exited 0 but wrote nothing in {outputDir}.` }) };
}
