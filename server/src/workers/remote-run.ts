import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ClaimedWorkerJob, JobLostError, type ProgressReport, UnreachableError, type WorkerClient } from './client.js';
import { downloadModels } from './job-models.js';
import { type JobRunContext, runWholeJob } from './remote-job.js';
import { type ImageRunner, ImageSkipped, JobFailure, type Runner } from './runners.js';
import { type WorkerLog, sleep } from './worker-log.js';

/** Calls within a job are tried this often when the server cannot be reached, waiting 1, 2, 4... s between. */
const JOB_CALL_TRIES = 6;
/** Images named in the job's result at most when they were skipped. */
const NOTED_SKIPS = 100;

export type RunEnd = 'done' | 'failed' | 'released' | 'lost';

export interface RemoteRunDeps {
  client: WorkerClient;
  runner: Runner;
  log: WorkerLog;
  /** Aborted when the worker stops: the job goes back to the queue. */
  stopping: AbortSignal;
}

/**
 * One claimed job on this worker: the models it names downloaded once, then each image
 * downloaded, made into a transcription file by the runner and uploaded, with its progress (or,
 * for a `--job-command`, the job run once over all its images); the lease renewed every third of it. It ends the job
 * once: done, failed with the reason, released when the worker stops, or with nothing more said
 * when the server answered that the job is no longer this worker's (cancelled, restarted, reaped).
 */
export async function runRemoteJob(job: ClaimedWorkerJob, deps: RemoteRunDeps): Promise<RunEnd> {
  const { client, runner, log } = deps;
  const controller = new AbortController();
  const signal = controller.signal;
  const onStop = () => controller.abort(new Error('the worker is stopping'));
  deps.stopping.addEventListener('abort', onStop, { once: true });
  if (deps.stopping.aborted) onStop();
  let lost = false;
  let progress: ProgressReport = { done: 0, total: job.images.length, message: 'Started' };
  const beat = async () => {
    if (lost) return;
    try {
      await client.heartbeat(job, progress);
    } catch (err) {
      if (err instanceof JobLostError) {
        lost = true;
        log.info(`job ${job.id}: ${err.message}`);
        controller.abort(err);
      } else log.warn(`job ${job.id}: a heartbeat failed (${(err as Error).message}); the next one tries again`);
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1000, (job.leaseSeconds * 1000) / 3));
  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), `pim-worker-job-${job.id}-`));
  const retrying = <T>(what: string, call: () => Promise<T>) => withRetries(what, call, log, signal);
  try {
    runner.check?.(job);
    if (job.models.length > 0) {
      progress = { done: 0, total: job.images.length, message: `Downloading ${job.models.map((m) => m.label).join(', ')}` };
      await beat();
    }
    const models = await downloadModels(job, workDir, (model, target) => retrying(`downloading the model ${model.label}`, () => client.downloadModel(job, model, target)), signal);
    const ctx: JobRunContext = {
      client,
      workDir,
      models,
      signal,
      retrying,
      report: async (p) => {
        progress = p;
        await beat();
      },
    };
    const result = 'runJob' in runner ? await runWholeJob(job, runner, ctx) : await runImages(job, runner, ctx, log);
    progress = { done: job.images.length, total: job.images.length, message: 'Done' };
    await beat();
    signal.throwIfAborted();
    await retrying('completing the job', () => client.complete(job, result));
    log.info(`job ${job.id} (${job.type}) is done: ${job.images.length} image${job.images.length === 1 ? '' : 's'}`);
    return 'done';
  } catch (err) {
    return await endEarly(job, err, { lost: lost || err instanceof JobLostError, stopping: deps.stopping.aborted, client, log });
  } finally {
    clearInterval(timer);
    deps.stopping.removeEventListener('abort', onStop);
    await fsp.rm(workDir, { recursive: true, force: true });
  }
}

/** Each image downloaded, made into a transcription file by the runner and uploaded, with its progress; returns the job's result. */
async function runImages(job: ClaimedWorkerJob, runner: ImageRunner, ctx: JobRunContext, log: WorkerLog): Promise<Record<string, unknown>> {
  const { client, workDir, models, signal, retrying } = ctx;
  const counts = { images: job.images.length, stored: 0, replaced: 0, kept: 0, skipped: 0 };
  const skipped: { image: string; label: string; error: string }[] = [];
  for (const [index, image] of job.images.entries()) {
    await ctx.report({ done: index, total: job.images.length, message: `Image ${index + 1} of ${job.images.length}: ${image.label}` });
    signal.throwIfAborted();
    const imageDir = path.join(workDir, `image-${index}`);
    await fsp.mkdir(imageDir);
    const imagePath = path.join(imageDir, `original${path.extname(image.fileName)}`);
    await retrying(`downloading ${image.label}`, () => client.downloadImage(job, image.uuid, imagePath));
    try {
      const made = await runner.runImage({ job, image, imagePath, workDir: imageDir, models, signal });
      const stored = await retrying(`uploading the transcription of ${image.label}`, () => client.uploadTranscription(job, image.uuid, made.path, made.fileName));
      if (stored.kind === 'transcription') counts[stored.outcome] += 1;
    } catch (err) {
      if (!(err instanceof ImageSkipped)) throw err;
      counts.skipped += 1;
      if (skipped.length < NOTED_SKIPS) skipped.push({ image: image.uuid, label: image.label, error: err.message });
      log.warn(`job ${job.id}: ${image.label} was skipped: ${err.message}`);
    }
    await fsp.rm(imageDir, { recursive: true, force: true });
  }
  return { ...counts, ...(skipped.length > 0 && { skippedImages: skipped }) };
}

/** The job ended before its last image: nothing said when it was taken away, released when stopping, else failed. */
async function endEarly(job: ClaimedWorkerJob, err: unknown, how: { lost: boolean; stopping: boolean; client: WorkerClient; log: WorkerLog }): Promise<RunEnd> {
  const { client, log } = how;
  if (how.lost) {
    log.info(`job ${job.id} was taken from this worker (cancelled, restarted, or its lease ran out): it stopped`);
    return 'lost';
  }
  const silently = (call: () => Promise<void>) => call().catch((e: unknown) => log.warn(`job ${job.id}: ${(e as Error).message}; its lease runs out and the server takes it back`));
  if (how.stopping) {
    await silently(() => client.release(job));
    log.info(`job ${job.id} went back to the queue: this worker is stopping`);
    return 'released';
  }
  const message = err instanceof JobFailure || err instanceof Error ? err.message : String(err);
  if (!(err instanceof JobFailure)) log.warn(`job ${job.id} failed with an unexpected error: ${err instanceof Error ? (err.stack ?? message) : message}`);
  await silently(() => client.fail(job, err instanceof JobFailure ? message : `The worker stopped with an error: ${message}`));
  log.warn(`job ${job.id} (${job.type}) failed: ${message}`);
  return 'failed';
}

/** Tries a call again while the server cannot be reached, saying so, up to JOB_CALL_TRIES times. */
async function withRetries<T>(what: string, call: () => Promise<T>, log: WorkerLog, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof UnreachableError) || attempt >= JOB_CALL_TRIES) throw err;
      const wait = 1000 * 2 ** (attempt - 1);
      log.warn(`${what}: ${err.message}; trying again in ${wait / 1000} s`);
      await sleep(wait, signal);
      signal.throwIfAborted();
    }
  }
}
