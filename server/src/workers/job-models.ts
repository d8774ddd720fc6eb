import fsp from 'node:fs/promises';
import path from 'node:path';
import type { JobModelField, WorkerModel } from '@pim/contract';
import { type ClaimedWorkerJob, RefusedError } from './client.js';
import { JobFailure } from './runners.js';

/** A model the job names, downloaded: where its file is on this worker. */
export interface LocalModel extends WorkerModel {
  path: string;
}

/** The job's models by the setting that names them; a setting without a model is absent. */
export type JobModels = Partial<Record<JobModelField, LocalModel>>;

/**
 * Downloads each model the job names, once, into `workDir/models/<setting>/` under its own file
 * name (its extension kept: Kraken tells `.mlmodel` from `.safetensors` by it). A model the
 * server refuses (deleted since the job was made) fails the job with the server's sentence.
 */
export async function downloadModels(
  job: ClaimedWorkerJob,
  workDir: string,
  download: (model: WorkerModel, target: string) => Promise<void>,
  signal: AbortSignal,
): Promise<JobModels> {
  const models: JobModels = {};
  for (const model of job.models) {
    signal.throwIfAborted();
    const dir = path.join(workDir, 'models', model.setting);
    await fsp.mkdir(dir, { recursive: true });
    const target = path.join(dir, model.fileName);
    try {
      await download(model, target);
    } catch (err) {
      if (err instanceof RefusedError) throw new JobFailure(err.message);
      throw err;
    }
    models[model.setting] = { ...model, path: target };
  }
  return models;
}
