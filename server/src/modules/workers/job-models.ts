import { JOB_MODEL_FIELDS, JOB_TYPE_INFO, type JobField, type JobModelField, MODEL_KIND_INFO, type ModelKind, type WorkerModel } from '@pim/contract';
import type { RunningJob } from '../../jobs/executor.js';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, notFound } from '../../platform/errors.js';
import { MODEL_KIND_NAMES } from '../models/model-formats.js';
import type { ModelRecord } from '../models/repository.js';
import type { ModelService } from '../models/service.js';

/** A model a job's settings name: which setting, the model's kind and id. */
export interface NamedModel {
  setting: JobModelField;
  kind: ModelKind;
  id: string;
}

/** The models the settings of the job's type name (a setting of another type does not count). */
export function namedModels(job: RunningJob): NamedModel[] {
  const fields = new Set<JobField>(JOB_TYPE_INFO[job.type].fields);
  const named: NamedModel[] = [];
  for (const [setting, kind] of Object.entries(JOB_MODEL_FIELDS) as [JobModelField, ModelKind][]) {
    const id = job.settings[setting];
    if (fields.has(setting) && typeof id === 'string') named.push({ setting, kind, id });
  }
  return named;
}

/**
 * The named model as the job's maker sees it: a model deleted since the job was made (or one the
 * maker may no longer see) is a 404 saying so.
 */
export async function modelOfJob(models: ModelService, principal: Principal, jobId: number, named: NamedModel): Promise<ModelRecord> {
  try {
    return await models.get(principal, named.kind, named.id);
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 404) throw err;
    throw notFound(`The ${MODEL_KIND_NAMES[named.kind]} model ${named.id} that job ${jobId} names (${named.setting}) was deleted after the job was made.`);
  }
}

/** How a worker is told of a model: enough to download it, check it, and give it to its tool. */
export function workerModel(named: NamedModel, model: ModelRecord): WorkerModel {
  return {
    setting: named.setting,
    id: model.id,
    kind: model.kind,
    label: model.label,
    language: model.language,
    fileName: safeFileName(model.file.originalName, model.kind),
    sizeBytes: model.file.sizeBytes,
    sha256: model.file.sha256,
  };
}

/**
 * The uploaded name as one safe word for a file system and a shell: its last path segment, other
 * characters than letters, digits, `.`, `_` and `-` made `_`, no leading dot, at most 100
 * characters with the extension kept; the kind's extension when it has none (tools such as Kraken
 * tell formats apart by it).
 */
export function safeFileName(originalName: string, kind: ModelKind): string {
  const base = (originalName.split(/[/\\]/).pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const dot = base.lastIndexOf('.');
  let stem = dot > 0 ? base.slice(0, dot) : base;
  let extension = dot > 0 ? base.slice(dot) : '';
  if (!extension || extension.length > 20) extension = `.${MODEL_KIND_INFO[kind].downloadExtension ?? 'bin'}`;
  stem = stem.slice(0, 100 - extension.length) || 'model';
  return `${stem}${extension}`;
}
