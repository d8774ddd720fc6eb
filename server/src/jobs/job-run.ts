import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../platform/errors.js';
import type { FileStore } from '../platform/storage/file-store.js';
import type { Services } from '../services.js';
import type { ExecutorRegistry, JobContext, JobOutputFile } from './executor.js';
import { type ClaimedJob, isJobNotYours, type JobProgressReport, type JobQueue } from './queue.js';

export interface JobRunDeps {
  queue: JobQueue;
  executors: ExecutorRegistry;
  services: Services;
  files: FileStore;
  log: FastifyBaseLogger;
  /** Progress is written at most this often (each write renews the lease too). */
  progressMs: number;
  /** The lease is renewed at least this often while the executor works, progress or not. */
  heartbeatMs: number;
}

/** Why a run was told to stop: its job was taken from it, or the worker is stopping. */
type StopReason = 'revoked' | 'stopping';

/**
 * One run of a claimed job in this process: builds the executor's context, keeps the lease alive
 * (each progress write, throttled, is a heartbeat; a timer beats between them), and ends the job
 * as done, failed, or, when the worker stops, back in the queue. A heartbeat answered "not yours"
 * aborts the executor's signal; nothing more is written for the job then.
 */
export class JobRun {
  readonly uuid: string;
  /** Settles when the run has ended and written what it had to. */
  readonly settled: Promise<void>;
  private readonly controller = new AbortController();
  private stopReason: StopReason | undefined;
  private ended = false;
  private latest: JobProgressReport | null = null;
  private lastBeat = 0;
  private beating: Promise<void> | undefined;
  private beatAgain = false;
  private trailing: NodeJS.Timeout | undefined;
  private readonly notes: Record<string, unknown> = {};

  constructor(
    private readonly claimed: ClaimedJob,
    private readonly deps: JobRunDeps,
  ) {
    this.uuid = claimed.row.uuid;
    this.settled = this.run();
  }

  /** The job was cancelled, restarted or reaped: the executor must stop, and nothing more is written. */
  revoke(): void {
    this.abort('revoked', 'This job was cancelled, restarted or taken back by the queue: it is no longer this run’s.');
  }

  /** The worker stops: the executor is aborted and the job goes back to the queue. */
  stop(): void {
    this.abort('stopping', 'The server is stopping: the job goes back to the queue and starts again later.');
  }

  /** Gives the job back now, whatever the executor still does (it ignored its signal); its later writes are refused. */
  async releaseNow(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.deps.queue.release(this.uuid, this.claimed.leaseToken).catch(() => undefined);
  }

  private abort(reason: StopReason, message: string): void {
    if (this.controller.signal.aborted) return;
    this.stopReason = reason;
    this.controller.abort(new AppError(409, reason === 'revoked' ? 'job_revoked' : 'worker_stopping', message));
  }

  private async run(): Promise<void> {
    const { row } = this.claimed;
    const { queue, files, log } = this.deps;
    const heartbeat = setInterval(() => void this.beat(), this.deps.heartbeatMs);
    let workDir: string | undefined;
    // The work folder goes before the job is recorded as ended: whoever sees it ended finds it gone.
    const removeWorkDir = async () => {
      if (workDir) await files.removeWorkDir(workDir).catch((err: unknown) => log.warn({ err, job: row.uuid }, 'could not remove the job’s work folder'));
      workDir = undefined;
    };
    try {
      const job = await queue.runningJob(row);
      const executor = this.deps.executors[job.type];
      if (!executor) throw new AppError(500, 'no_executor', `This server has no executor for ${job.type} jobs.`);
      workDir = await files.makeWorkDir(`job-${row.id}`);
      await executor(this.context(job, workDir));
      await this.flushProgress();
      await removeWorkDir();
      await this.end('done');
    } catch (err) {
      await this.flushProgress();
      await removeWorkDir();
      if (this.stopReason === 'stopping' && !isJobNotYours(err)) await this.releaseNow();
      else if (this.stopReason === 'revoked' || isJobNotYours(err)) log.info({ job: row.uuid }, 'the job was taken from this run; it stopped');
      else await this.end('failed', err);
    } finally {
      clearInterval(heartbeat);
      if (this.trailing) clearTimeout(this.trailing);
      await removeWorkDir();
    }
  }

  private context(job: JobContext['job'], workDir: string): JobContext {
    const { row } = this.claimed;
    const log = this.deps.log.child({ job: row.uuid, type: row.type });
    return {
      job,
      services: this.deps.services,
      signal: this.controller.signal,
      progress: (done, total, message) => this.progress({ done, total, ...(message !== undefined && { message }) }),
      workDir,
      output: (file) => this.output(file),
      note: (result) => Object.assign(this.notes, result),
      log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
    };
  }

  /** Records progress: written at once when the last write is progressMs old, else a little later (the newest wins). */
  private progress(report: JobProgressReport): Promise<void> {
    this.latest = report;
    const wait = this.lastBeat + this.deps.progressMs - Date.now();
    if (wait <= 0) return this.beat();
    this.trailing ??= setTimeout(() => {
      this.trailing = undefined;
      void this.beat();
    }, wait);
    return Promise.resolve();
  }

  /** Renews the lease with the newest progress; a beat asked for while one is on its way follows it. */
  private beat(): Promise<void> {
    if (this.ended) return Promise.resolve();
    if (this.beating) {
      this.beatAgain = true;
      return this.beating;
    }
    this.lastBeat = Date.now();
    this.beating = this.deps.queue
      .heartbeat(this.uuid, this.claimed.leaseToken, this.latest)
      .then(
        () => undefined,
        (err: unknown) => {
          if (isJobNotYours(err)) this.revoke();
          else this.deps.log.warn({ err, job: this.uuid }, 'a heartbeat of a running job failed; the next one tries again');
        },
      )
      .finally(() => {
        this.beating = undefined;
        if (this.beatAgain) {
          this.beatAgain = false;
          void this.beat();
        }
      });
    return this.beating;
  }

  private async flushProgress(): Promise<void> {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = undefined;
    this.beatAgain = false;
    await this.beating;
  }

  private async output(file: JobOutputFile): Promise<void> {
    const staged = await this.deps.files.stageFile(file.path);
    try {
      await this.deps.queue.attachOutput(this.uuid, this.claimed.leaseToken, staged, { fileName: file.fileName, mediaType: file.mediaType });
    } catch (err) {
      if (isJobNotYours(err)) this.revoke();
      throw err;
    } finally {
      await staged.discard();
    }
  }

  private async end(state: 'done' | 'failed', err?: unknown): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const { queue, log } = this.deps;
    const end = { result: this.notes, progress: this.latest };
    try {
      if (state === 'done') await queue.complete(this.uuid, this.claimed.leaseToken, end);
      else await queue.fail(this.uuid, this.claimed.leaseToken, failureMessage(err, log, this.uuid), end);
    } catch (writeErr) {
      if (isJobNotYours(writeErr)) log.info({ job: this.uuid }, 'the job was taken from this run before it ended; its result is dropped');
      else log.error({ err: writeErr, job: this.uuid }, 'could not record the end of a job; the reaper takes it back when its lease expires');
    }
  }
}

/** What the job's user reads: an AppError's sentence as it is; anything else is a defect, logged in full. */
function failureMessage(err: unknown, log: FastifyBaseLogger, uuid: string): string {
  if (err instanceof AppError) return err.message;
  log.error({ err, job: uuid }, 'a job failed with an unexpected error');
  const message = err instanceof Error ? err.message : String(err);
  return `The job stopped with an unexpected error: ${message}`;
}
