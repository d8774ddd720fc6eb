import { JOB_MODEL_FIELD_NAMES, JOB_TYPE_INFO, type Job, type JobState, type JobTypeListItem, type SubJob } from '@pim/contract';
import type { JobRowState } from '../../platform/db/schema.js';
import type { JobRecord, SubJobRecord } from './repository.js';

/** What the presenter needs besides the record: which types some worker serves, and the places in the queue. */
export interface JobListContext {
  served: ReadonlySet<string>;
  /** The types a remote worker serves: remote-only jobs wait for one of those. */
  servedRemotely: ReadonlySet<string>;
  places: ReadonlyMap<number, number>;
  /** The labels of the models the jobs' settings name, by id. */
  modelLabels: ReadonlyMap<string, string>;
}

const API_STATE: Record<JobRowState, JobState> = {
  queued: 'notStarted',
  running: 'running',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The sentence of a queued job no worker serves: it says what it waits for, never a silent hang. */
export function waitingForWorker(type: string, remoteOnly = false): string {
  return remoteOnly ? `Waiting for a remote worker that runs ${type}: this one trains or runs a model this server cannot.` : `Waiting for a worker that runs ${type}.`;
}

export function presentJob(job: JobRecord, context: JobListContext): Job {
  const queued = job.state === 'queued';
  return {
    id: job.id,
    uuid: job.uuid,
    jobType: job.type,
    state: API_STATE[job.state],
    startDate: job.startedAt?.toISOString() ?? null,
    endDate: job.finishedAt?.toISOString() ?? null,
    done: job.state === 'done',
    inProgress: job.state === 'running',
    documentImageset: job.set && { uuid: job.set.id, name: job.set.name },
    created: job.createdAt.toISOString(),
    updated: job.updatedAt.toISOString(),
    allData: job.settings.allData === true,
    uri: typeof job.settings.uri === 'string' ? job.settings.uri : null,
    elasticSearchIndex: job.searchIndexName,
    error: job.error,
    jobOrder: queued ? (context.places.get(job.id) ?? null) : null,
    priority: job.priority,
    downloadUri: hasDownload(job) ? `pim/jobs/download/${job.uuid}` : null,
    wrapper: job.wrapperUuid,
    owner: job.owner && { uuid: job.owner.id, name: job.owner.name },
    progress: job.startedAt || job.progress.message || job.progress.done > 0 ? job.progress : null,
    waitingFor: queued && !(job.remoteOnly ? context.servedRemotely : context.served).has(job.type) ? waitingForWorker(job.type, job.remoteOnly) : null,
    worker: job.worker && { name: job.worker.name, host: job.worker.host, versions: job.worker.versions },
    attempts: job.attempts,
    settings: job.settings,
    result: job.result,
    settingNames: settingNamesOf(job, context),
  };
}

/** The names of what a job's settings name by id (its models), by setting, for people to read. */
function settingNamesOf(job: JobRecord, context: JobListContext): Record<string, string> {
  const names: Record<string, string> = {};
  for (const field of JOB_MODEL_FIELD_NAMES) {
    const id = job.settings[field];
    const label = typeof id === 'string' ? context.modelLabels.get(id) : undefined;
    if (label !== undefined) names[field] = label;
  }
  return names;
}

/** A download is offered once the job is done and made a file. */
export function hasDownload(job: JobRecord): boolean {
  return job.state === 'done' && job.outputFileId !== null;
}

export function presentJobType(type: keyof typeof JOB_TYPE_INFO, served: ReadonlySet<string>): JobTypeListItem {
  const info = JOB_TYPE_INFO[type];
  return {
    type,
    runsHere: info.runsHere,
    served: served.has(type),
    summary: info.summary,
    fields: [...info.fields],
    required: [...info.required],
    download: info.download,
  };
}

/** A P2PaLA or Siamese record: its own configuration, and the state of the job that runs it. */
export function presentSubJob(sub: SubJobRecord): SubJob {
  const job = sub.wrapper;
  const updated = job.updatedAt > sub.updatedAt ? job.updatedAt : sub.updatedAt;
  return {
    uuid: sub.id,
    wrapper: job.uuid,
    created: sub.createdAt.toISOString(),
    updated: updated.toISOString(),
    inProgress: job.state === 'running',
    startDate: job.startedAt?.toISOString() ?? null,
    done: job.state === 'done',
    config: sub.config,
    errors: job.error,
    imageSet: job.set && { uuid: job.set.id, name: job.set.name },
    networkSpec: sub.networkSpec,
  };
}
