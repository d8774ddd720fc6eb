import { randomUUID } from 'node:crypto';
import { type JobType, createJobRequestSchema } from '@pim/contract';
import type { Principal } from '../platform/auth/principal.js';
import type { Database } from '../platform/db/database.js';
import type { JobRowState } from '../platform/db/schema.js';
import { AppError } from '../platform/errors.js';
import type { FileStore, StagedFile } from '../platform/storage/file-store.js';
import { insertStoredFiles, publishWithRows, removeUnreferenced } from '../platform/storage/stored-file-repository.js';
import { effectiveRoles } from '../modules/sessions/service.js';
import type { RunningJob } from './executor.js';
import {
  type ClaimingWorker,
  JOB_CHANNEL,
  type JobProgressReport,
  JobQueueRepository,
  type JobRef,
  type JobRow,
  type NewJob,
  type FinishedJob,
} from './queue-repository.js';

export type { ClaimingWorker, JobProgressReport, JobRef, JobRow, NewJob } from './queue-repository.js';

/** A worker that asked for jobs of a type this long ago still counts as serving it. */
export const WORKER_SEEN_WINDOW_S = 5 * 60;

/** What the queue tells listeners: a job of a type was queued, or a run lost its job. */
export type QueueEvent = { kind: 'queued'; type: string } | { kind: 'revoked'; uuid: string };

/** A job a worker has claimed: the row, and the lease token every later report must name. */
export interface ClaimedJob {
  row: JobRow;
  leaseToken: string;
}

export interface QueueOptions {
  /** How long a claim holds a job without a heartbeat. */
  leaseMs: number;
  /** Runs of a job whose worker died before it fails for good. */
  maxAttempts: number;
}

/** A job to queue: the queue gives it its uuid, and its attempts unless told. */
export type JobRequest = Omit<NewJob, 'uuid' | 'maxAttempts' | 'wrapperId'> & Partial<Pick<NewJob, 'maxAttempts' | 'wrapperId'>>;

/** The answer to a run that reports on a job it no longer holds. */
export function jobNotYours(): AppError {
  return new AppError(
    409,
    'job_not_yours',
    'This job is no longer yours: it was cancelled or restarted, or its lease expired and it was given back to the queue. Stop working on it.',
  );
}

export function isJobNotYours(err: unknown): boolean {
  return err instanceof AppError && err.code === 'job_not_yours';
}

const REQUEUED_AFTER_LOST_WORKER = 'Waiting to start again: the worker that ran it stopped answering.';
const RELEASED_BY_STOPPING_WORKER = 'Waiting to start again: the server that ran it was stopped.';
const RESTARTED = 'Restarted: waiting to start from the beginning.';
const CANCELLED = 'Cancelled.';

const failedAfterLostWorkers = (attempts: number) =>
  `The job was started ${attempts} ${attempts === 1 ? 'time' : 'times'} and each time its worker stopped answering ` +
  '(it crashed, was stopped or lost its connection), so it is not tried again. Restart it to try once more.';

/**
 * The job queue in the database, shared by the built-in worker of every server and by remote
 * workers. A claim gives a job to one worker with a lease; the worker reports with the lease
 * token (heartbeat, progress, output, complete, fail) and is answered `jobNotYours` once the job
 * was cancelled, restarted or reaped. The reaper takes back jobs whose lease expired.
 */
export class JobQueue {
  readonly repo: JobQueueRepository;
  private readonly doneListeners: ((job: FinishedJob) => Promise<void>)[] = [];

  constructor(
    private readonly database: Database,
    private readonly files: FileStore,
    readonly options: QueueOptions,
  ) {
    this.repo = new JobQueueRepository(database.db);
  }

  /**
   * Queues a job; `alsoWrite` records what belongs to it (a P2PaLA job's record) in the same
   * transaction. Workers are told at commit.
   */
  async enqueue(request: JobRequest, alsoWrite?: (trx: JobTransaction, row: JobRow) => Promise<void>): Promise<JobRow> {
    return this.repo.transaction(async (trx) => {
      const [row] = await this.repo.insert(trx, [this.newJob(request)]);
      await alsoWrite?.(trx, row!);
      await this.repo.notify(trx, [`queued:${row!.type}`]);
      return row!;
    });
  }

  /** Queues many jobs, a thousand per transaction; how many were queued. */
  async enqueueMany(requests: JobRequest[]): Promise<number> {
    const BATCH = 1000;
    for (let i = 0; i < requests.length; i += BATCH) {
      const batch = requests.slice(i, i + BATCH).map((r) => this.newJob(r));
      await this.repo.transaction(async (trx) => {
        await this.repo.insert(trx, batch);
        await this.repo.notify(trx, [...new Set(batch.map((j) => `queued:${j.type}`))]);
      });
    }
    return requests.length;
  }

  /**
   * Gives the first queued job of the types (by priority, then age) to the worker, with a lease
   * of `leaseMs`; null when none waits. The run counts as an attempt.
   */
  async claim(types: readonly JobType[], worker: ClaimingWorker, leaseMs = this.options.leaseMs, builtIn = false): Promise<ClaimedJob | null> {
    if (types.length === 0) return null;
    const leaseToken = randomUUID();
    const row = await this.repo.claim(types, worker, leaseToken, leaseMs, builtIn);
    return row ? { row, leaseToken } : null;
  }

  /** Renews the lease and records progress; throws jobNotYours when the run no longer holds the job. */
  async heartbeat(uuid: string, leaseToken: string, progress: JobProgressReport | null = null): Promise<Date> {
    const expires = await this.repo.heartbeat(uuid, leaseToken, this.options.leaseMs, progress);
    if (!expires) throw jobNotYours();
    return expires;
  }

  async complete(uuid: string, leaseToken: string, end: { result?: Record<string, unknown>; progress?: JobProgressReport | null } = {}): Promise<void> {
    const outcome = { state: 'done' as const, error: null, result: end.result ?? {}, progress: end.progress ?? null };
    const finished = await this.repo.finish(uuid, leaseToken, outcome);
    if (!finished) throw jobNotYours();
    for (const listener of this.doneListeners) await listener(finished);
  }

  /** Runs after each job that ends done (e.g. to index the text an OCR job stored); it handles its own errors. */
  onDone(listener: (job: FinishedJob) => Promise<void>): void {
    this.doneListeners.push(listener);
  }

  /** Fails the job with a message for its user; it is not tried again unless restarted. */
  async fail(uuid: string, leaseToken: string, message: string, end: { result?: Record<string, unknown>; progress?: JobProgressReport | null } = {}): Promise<void> {
    const outcome = { state: 'failed' as const, error: message.slice(0, 4000), result: end.result ?? {}, progress: end.progress ?? null };
    if (!(await this.repo.finish(uuid, leaseToken, outcome))) throw jobNotYours();
  }

  /** Gives the job back to the queue, not counting the run (its worker stops): another worker starts it again. */
  async release(uuid: string, leaseToken: string): Promise<void> {
    const row = await this.repo.release(uuid, leaseToken, RELEASED_BY_STOPPING_WORKER);
    if (!row) throw jobNotYours();
    await this.repo.notify(this.repo.db, [`queued:${row.type}`]);
  }

  /**
   * Keeps a file the run made as the job's download (one per job: the last one wins). The caller
   * staged it and discards it afterwards; the store keeps its own copy with a stored_file row.
   */
  async attachOutput(uuid: string, leaseToken: string, staged: StagedFile, meta: { fileName: string; mediaType: string }): Promise<void> {
    const fileId = randomUUID();
    let previous: string | undefined;
    const recorded = await publishWithRows(this.repo.db, this.files.publication([staged]), async (trx) => {
      const run = await this.repo.lockRun(trx, uuid, leaseToken);
      if (!run) return false;
      await insertStoredFiles(trx, [
        {
          id: fileId,
          sha256: staged.sha256,
          sizeBytes: staged.sizeBytes,
          mediaType: MEDIA_TYPE.test(meta.mediaType) ? meta.mediaType : 'application/octet-stream',
          originalName: downloadName(meta.fileName),
          ownerId: run.owner_id,
        },
      ]);
      await this.repo.setOutput(trx, run.id, fileId);
      if (run.output_file_id) previous = await this.repo.dropStoredFile(trx, run.output_file_id);
      return true;
    });
    if (!recorded) throw jobNotYours();
    if (previous) await this.removeBytes(previous);
  }

  /**
   * Cancels the job when its state is one of `from` (the run holding it is told); otherwise
   * changes nothing. Undefined when there is no such job.
   */
  cancel(ref: JobRef, from: readonly JobRowState[]): Promise<TransitionResult | undefined> {
    return this.transition(ref, from, async (trx, row) => {
      const cancelled = await this.repo.cancel(trx, row.id, CANCELLED);
      await this.repo.notify(trx, [`revoked:${row.uuid}`]);
      return cancelled;
    });
  }

  /** Queues the job again from the start when its state is one of `from`; a run holding it is told. */
  async restart(ref: JobRef, from: readonly JobRowState[]): Promise<TransitionResult | undefined> {
    let previous: string | undefined;
    const result = await this.transition(ref, from, async (trx, row) => {
      const requeued = await this.repo.requeue(trx, row.id, RESTARTED);
      if (row.output_file_id) previous = await this.repo.dropStoredFile(trx, row.output_file_id);
      await this.repo.notify(trx, [`revoked:${row.uuid}`, `queued:${row.type}`]);
      return requeued;
    });
    if (previous) await this.removeBytes(previous);
    return result;
  }

  /**
   * Takes back the running jobs whose lease expired: queued again (their worker, should it still
   * run, is told), or failed after maxAttempts runs. Returns the jobs it changed.
   */
  async reap(): Promise<JobRow[]> {
    const reaped = await this.repo.reapExpired(REQUEUED_AFTER_LOST_WORKER, failedAfterLostWorkers);
    if (reaped.length > 0) {
      const queued = reaped.filter((r) => r.state === 'queued').map((r) => `queued:${r.type}`);
      await this.repo.notify(this.repo.db, [...reaped.map((r) => `revoked:${r.uuid}`), ...new Set(queued)]);
    }
    return reaped;
  }

  /**
   * Ends now the leases of the runs that built-in workers on this host hold for processes that
   * have ended (`ended` decides), and reaps them: after a crash and restart, the jobs the crashed
   * server was running start again at once instead of after their lease.
   */
  async reapEndedBuiltIns(host: string, ended: (builtIn: { pid: number; instance: string }) => boolean): Promise<JobRow[]> {
    for (const run of await this.repo.builtInRunsOn(host)) {
      const builtIn = run.worker?.builtIn;
      if (builtIn && run.lease_token && ended(builtIn)) await this.repo.expireLease(run.uuid, run.lease_token);
    }
    return this.reap();
  }

  /** Records that a worker asked for jobs of these types (the built-in worker and remote ones alike). */
  markSeen(worker: string, types: readonly JobType[], details: Record<string, unknown> = {}): Promise<void> {
    return this.repo.markSeen(worker, types, details);
  }

  /** The types some worker asked for within WORKER_SEEN_WINDOW_S. */
  async servedTypes(): Promise<Set<string>> {
    return new Set(await this.repo.typesSeenWithin(WORKER_SEEN_WINDOW_S));
  }

  /** The types some remote worker asked for within WORKER_SEEN_WINDOW_S: who serves remote-only jobs. */
  async servedRemotely(): Promise<Set<string>> {
    return new Set(await this.repo.typesSeenWithin(WORKER_SEEN_WINDOW_S, true));
  }

  /** Calls `listener` for every job queued or withdrawn, from now on; resolves with the function that stops it. */
  subscribe(listener: (event: QueueEvent) => void): Promise<() => Promise<void>> {
    return this.database.listen(JOB_CHANNEL, (payload) => {
      const event = parseEvent(payload);
      if (event) listener(event);
    });
  }

  /**
   * The claimed job as an executor gets it: its settings with their defaults, and the rights of
   * the user (or API key) who made it. An AppError when it cannot run: its owner is disabled or
   * gone, or its stored settings no longer pass the contract.
   */
  async runningJob(row: JobRow): Promise<RunningJob> {
    const parsed = createJobRequestSchema.safeParse({ ...row.settings, jobType: row.type });
    if (!parsed.success) {
      throw new AppError(400, 'bad_job_settings', `The settings stored with this job are not valid any more: ${parsed.error.issues[0]?.message}`);
    }
    const principal = await this.makerOf(row.owner_id, row.api_key_id);
    return {
      id: row.id,
      uuid: row.uuid,
      type: row.type as JobType,
      settings: parsed.data,
      setId: row.set_id,
      ownerId: row.owner_id,
      principal,
    };
  }

  /** The rights a job acts with: its maker's as they are now; a 403 when the maker was disabled or deleted since. */
  async makerOf(ownerId: string | null, apiKeyId: string | null): Promise<Principal> {
    const principal = await this.principalOf(ownerId, apiKeyId);
    if (!principal) throw new AppError(403, 'owner_inactive', JOB_MAKER_INACTIVE);
    return principal;
  }

  /** The rights of a job's maker as they are now: a user, or an API key; undefined when disabled or gone. */
  async principalOf(ownerId: string | null, apiKeyId: string | null): Promise<Principal | undefined> {
    const owner = await this.repo.activeOwner(ownerId, apiKeyId);
    if (!owner) return undefined;
    return owner.kind === 'user'
      ? { kind: 'user', userId: owner.id, name: owner.name, email: owner.email, roles: effectiveRoles(owner.roles) }
      : { kind: 'apikey', apiKeyId: owner.id, userName: owner.user_name, userId: null, roles: effectiveRoles(owner.roles) };
  }

  private newJob(request: JobRequest): NewJob {
    return { wrapperId: null, maxAttempts: this.options.maxAttempts, ...request, uuid: randomUUID() };
  }

  private async transition(
    ref: JobRef,
    from: readonly JobRowState[],
    change: (trx: JobTransaction, row: JobRow) => Promise<JobRow>,
  ): Promise<TransitionResult | undefined> {
    return this.repo.transaction(async (trx) => {
      const row = await this.repo.lock(trx, ref);
      if (!row) return undefined;
      if (!from.includes(row.state)) return { changed: false, row };
      return { changed: true, row: await change(trx, row) };
    });
  }

  private async removeBytes(sha256: string): Promise<void> {
    // A failed removal leaves an unreferenced file for `pim files gc`: the rows are right either way.
    await removeUnreferenced(this.repo.db, [sha256], (s) => this.files.remove(s)).catch(() => undefined);
  }
}

export const JOB_MAKER_INACTIVE = 'The user or API key that made this job is disabled or deleted, and a job acts with its maker’s rights.';

/** The transaction a queue change runs in, for what is written with it. */
export type JobTransaction = Parameters<Parameters<JobQueueRepository['transaction']>[0]>[0];

/** A state change: made, or refused because the job was in another state (the row says which). */
export interface TransitionResult {
  changed: boolean;
  row: JobRow;
}

const MEDIA_TYPE = /^[\w!#$&^.+-]{1,100}\/[\w!#$&^.+-]{1,100}$/;

/** The name a download gets: the last part of what a worker named it, without control characters. */
function downloadName(given: string): string {
  // eslint-disable-next-line no-control-regex
  const name = (given.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return name === '' || name === '.' || name === '..' ? 'output' : name;
}

function parseEvent(payload: string): QueueEvent | undefined {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon);
  const value = payload.slice(colon + 1);
  if (kind === 'queued') return { kind, type: value };
  if (kind === 'revoked') return { kind, uuid: value };
  return undefined;
}
