import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type CreateJobRequest,
  createJobRequestSchema,
  JOB_MODEL_FIELD_NAMES,
  JOB_TYPE_INFO,
  type JobListQuery,
  type JobType,
  P2PALA_OPTIONS,
  type P2palaOptionList,
  ROLE,
  missingJobFields,
} from '@pim/contract';
import type { JobQueue, JobRef, JobRow, JobTransaction } from '../../jobs/queue.js';
import type { Principal } from '../../platform/auth/principal.js';
import { isAdmin, requireCreator, requireJobCaller, requireRole } from '../../platform/auth/policy.js';
import type { JobRowState } from '../../platform/db/schema.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import { hasDownload, type JobListContext } from './presenter.js';
import type { JobReferences } from './references.js';
import type { JobFile, JobRecord, JobRepository, JobScope, SubJobKind, SubJobRecord } from './repository.js';

/** The fields of a P2PaLA or Siamese job that its own record keeps as its configuration. */
const SUB_JOB_OF: Partial<Record<JobType, SubJobKind>> = { P2PaLA: 'p2pala', SiameseNetwork: 'siamese' };

/** Cancel only what has not started; restart what started and did not finish well. */
const CANCELLABLE: readonly JobRowState[] = ['queued'];
const RESTARTABLE: readonly JobRowState[] = ['running', 'failed', 'cancelled'];
/** A P2PaLA or Siamese job is cancelled from its screen while it waits or runs (GPU work takes hours). */
const SUB_JOB_CANCELLABLE: readonly JobRowState[] = ['queued', 'running'];

/**
 * The jobs of people (spec part 2 §2-§4, §7): everyone sees and acts on the jobs they made,
 * admins on all. A job on a set needs WRITE on the set; a job on no set (removing a search index)
 * needs ADMIN. MINION keys are refused here: they claim through the worker calls.
 */
export class JobService {
  constructor(
    private readonly repo: JobRepository,
    private readonly queue: JobQueue,
    private readonly access: ImageSetAccess,
    private readonly references: JobReferences,
    private readonly files: FileStore,
  ) {}

  async list(principal: Principal | null, query: JobListQuery): Promise<{ records: JobRecord[]; total: number; context: JobListContext }> {
    const scope = scopeOf(requireJobCaller(principal), query.onlyOwnData);
    const [records, total] = await Promise.all([this.repo.page(scope, query.page * query.pageSize, query.pageSize), this.repo.count(scope)]);
    return { records, total, context: await this.contextFor(records) };
  }

  async get(principal: Principal | null, id: string): Promise<{ record: JobRecord; context: JobListContext }> {
    const record = await this.requireVisible(requireJobCaller(principal), id);
    return { record, context: await this.contextFor([record]) };
  }

  /** Every type with where it runs and whether a worker serving it was seen lately. */
  async types(principal: Principal | null): Promise<{ types: JobType[]; served: Set<string> }> {
    requireJobCaller(principal);
    return { types: Object.keys(JOB_TYPE_INFO) as JobType[], served: await this.queue.servedTypes() };
  }

  /** Checks the request and the caller's rights on what it names, then queues the job; the API never waits for it. */
  async create(principal: Principal | null, request: CreateJobRequest): Promise<{ record: JobRecord; context: JobListContext }> {
    const caller = requireCreator(requireJobCaller(principal));
    const missing = missingJobFields(request);
    if (missing.length > 0) {
      throw badRequest(`A ${request.jobType} job needs ${missing.join(' and ')}: ${missing.length === 1 ? 'it is' : 'they are'} missing.`, { missing });
    }
    if (request.imageSet) await this.access.requireSet(caller, request.imageSet, 'WRITE');
    else requireRole(caller, ROLE.ADMIN);
    await this.references.check(caller, request);
    const settings = settingsOf(request);
    const row = await this.queue.enqueue(
      {
        type: request.jobType,
        priority: request.priority,
        settings,
        setId: request.imageSet ?? null,
        ownerId: caller.userId,
        apiKeyId: caller.kind === 'apikey' ? caller.apiKeyId : null,
        remoteOnly: await this.references.remoteOnly(caller, request),
      },
      (trx, job) => this.recordSubJob(trx, job, settings),
    );
    return this.get(caller, row.uuid);
  }

  /**
   * Queues work an upload hands on (pages of a long PDF, pyramids of large images) for its
   * uploader, unless a job of that type on that set of theirs waits already: such a job reads the
   * set when it starts, so it does the new work too.
   */
  async queueForUpload(principal: Principal, jobType: 'SplitPDF' | 'ConvertToTiledTiff' | 'SendToElasticSearch', setId: string): Promise<JobRecord> {
    const waiting = await this.repo.findQueued(jobType, setId, scopeOf(principal, true));
    if (waiting) return waiting;
    return (await this.create(principal, createJobRequestSchema.parse({ jobType, imageSet: setId }))).record;
  }

  /** Cancels a job that has not started; a 409 says why another cannot be. */
  async cancel(principal: Principal | null, id: string): Promise<{ record: JobRecord; context: JobListContext }> {
    const caller = requireJobCaller(principal);
    const job = await this.requireVisible(caller, id);
    const result = await this.queue.cancel(refOf(String(job.id)), CANCELLABLE);
    if (!result?.changed) throw conflict(whyNotCancelled(result?.row ?? job));
    return this.get(caller, job.uuid);
  }

  /** Queues a started, failed or cancelled job again from the start; a run still holding it is told to stop. */
  async restart(principal: Principal | null, id: string): Promise<{ record: JobRecord; context: JobListContext }> {
    const caller = requireJobCaller(principal);
    const job = await this.requireVisible(caller, id);
    const result = await this.queue.restart(refOf(String(job.id)), RESTARTABLE);
    if (!result?.changed) throw conflict(whyNotRestarted(result?.row ?? job));
    return this.get(caller, job.uuid);
  }

  /** The file a done job made, to stream with its name. */
  async download(principal: Principal | null, uuid: string): Promise<{ file: JobFile; open: () => Readable }> {
    const job = await this.requireVisible(requireJobCaller(principal), uuid);
    const file = hasDownload(job) && job.outputFileId ? await this.repo.file(job.outputFileId) : undefined;
    if (!file) throw notFound(whyNoDownload(job));
    return { file, open: () => this.files.stream(file.sha256) };
  }

  async subJobs(principal: Principal | null, kind: SubJobKind, onlyOwnData: boolean): Promise<SubJobRecord[]> {
    return this.repo.subJobs(kind, scopeOf(requireJobCaller(principal), onlyOwnData));
  }

  /** Cancels the job of a P2PaLA or Siamese record, waiting or running. */
  async cancelSubJob(principal: Principal | null, kind: SubJobKind, id: string): Promise<void> {
    const caller = requireJobCaller(principal);
    const job = await this.repo.wrapperOf(kind, id);
    if (!job || !maySee(caller, job)) throw notFound(`There is no ${kind === 'p2pala' ? 'P2PaLA' : 'Siamese'} job with id ${id}.`);
    const result = await this.queue.cancel(refOf(String(job.id)), SUB_JOB_CANCELLABLE);
    if (!result?.changed) throw conflict(`${describe(result?.row ?? job)}: only a job that waits or runs can be cancelled.`);
  }

  p2palaOptions(principal: Principal | null, list: P2palaOptionList): readonly string[] {
    requireJobCaller(principal);
    return P2PALA_OPTIONS[list];
  }

  private async requireVisible(caller: Principal, id: string): Promise<JobRecord> {
    const job = await this.repo.find(refOf(id));
    if (!job || !maySee(caller, job)) throw notFound(`There is no job with id ${id}.`);
    return job;
  }

  private async contextFor(records: JobRecord[]): Promise<JobListContext> {
    const queued = records.filter((r) => r.state === 'queued');
    const modelIds = [...new Set(records.flatMap(namedModelIds))];
    const [served, servedRemotely, places, modelLabels] = await Promise.all([
      queued.length > 0 ? this.queue.servedTypes() : new Set<string>(),
      queued.some((r) => r.remoteOnly) ? this.queue.servedRemotely() : new Set<string>(),
      this.repo.placesInQueue(queued.map((r) => ({ id: r.id, priority: r.priority }))),
      this.repo.modelLabels(modelIds),
    ]);
    return { served, servedRemotely, places, modelLabels };
  }

  private async recordSubJob(trx: JobTransaction, job: JobRow, settings: Record<string, unknown>): Promise<void> {
    const kind = SUB_JOB_OF[job.type as JobType];
    if (!kind) return;
    const { networkSpec, jobType: _type, priority: _priority, imageSet: _set, ...config } = settings;
    await this.repo.insertSubJob(trx, kind, {
      id: randomUUID(),
      wrapperId: job.id,
      config,
      networkSpec: typeof networkSpec === 'string' ? networkSpec : null,
    });
  }
}

/** The ids of the models a job's settings name (its Kraken, Tesseract, P2PaLA or Siamese model). */
function namedModelIds(job: JobRecord): string[] {
  return JOB_MODEL_FIELD_NAMES.map((field) => job.settings[field]).filter((id): id is string => typeof id === 'string' && UUID.test(id));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` of the job calls: the serial id or the uuid. */
function refOf(id: string): JobRef {
  return /^\d+$/.test(id) ? { kind: 'id', id: Number(id) } : { kind: 'uuid', uuid: id.toLowerCase() };
}

function scopeOf(caller: Principal, onlyOwnData: boolean): JobScope {
  if (isAdmin(caller) && !onlyOwnData) return { all: true };
  return caller.kind === 'user' ? { ownerId: caller.userId } : { apiKeyId: caller.apiKeyId };
}

/** Admins see every job; others those they made (a user, or an API key). */
function maySee(caller: Principal, job: JobRecord): boolean {
  if (isAdmin(caller)) return true;
  return caller.kind === 'user' ? job.owner?.id === caller.userId : job.apiKeyId === caller.apiKeyId;
}

/** What the job keeps of the request: its type, priority and the fields its type uses. */
function settingsOf(request: CreateJobRequest): Record<string, unknown> {
  const settings: Record<string, unknown> = { jobType: request.jobType, priority: request.priority };
  for (const field of JOB_TYPE_INFO[request.jobType].fields) {
    const value = request[field as keyof CreateJobRequest];
    if (value !== undefined) settings[field] = value;
  }
  return settings;
}

const describe = (job: { id: number; state: JobRowState }) => {
  const states: Record<JobRowState, string> = {
    queued: 'has not started yet',
    running: 'is running',
    done: 'is done',
    failed: 'has failed',
    cancelled: 'was cancelled',
  };
  return `Job ${job.id} ${states[job.state]}`;
};

function whyNotCancelled(job: { id: number; state: JobRowState }): string {
  if (job.state === 'cancelled') return `Job ${job.id} is cancelled already.`;
  return `${describe(job)}: only a job that has not started can be cancelled.`;
}

function whyNotRestarted(job: { id: number; state: JobRowState }): string {
  if (job.state === 'queued') return `${describe(job)}: it waits in the queue, and only a job that has started can be restarted.`;
  return `${describe(job)}: create a new job to run it again.`;
}

function whyNoDownload(job: JobRecord): string {
  if (job.state === 'done') return `Job ${job.id} made no file to download.`;
  if (job.state === 'queued' || job.state === 'running') return `Job ${job.id} ${job.state === 'queued' ? 'has not started yet' : 'is still running'}: its file can be downloaded once it is done.`;
  return `${describe(job)}: it has no file to download.`;
}
