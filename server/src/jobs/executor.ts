import type { CreateJobRequest, JobType } from '@pim/contract';
import type { Principal } from '../platform/auth/principal.js';
import type { Services } from '../services.js';

/** The job an executor runs: what it was created with. */
export interface RunningJob {
  id: number;
  uuid: string;
  type: JobType;
  /** The creation payload with its defaults filled in (contract: `createJobRequestSchema`). */
  settings: CreateJobRequest;
  /** The image set it works on, when it has one. */
  setId: string | null;
  /** Who created it (null for an API key); its executor acts with this user's rights. */
  ownerId: string | null;
  /**
   * The rights the executor acts with: those of the user who made the job, as they are when it
   * runs (or of the API key that made it). Pass it to the services, as a route passes the caller.
   */
  principal: Principal;
}

/** A file a job made for its user to download (an EPUB, a CSV). */
export interface JobOutputFile {
  /** A file on disk the executor wrote (e.g. in `ctx.workDir`): it is moved into the store. */
  path: string;
  /** The name the download gets, e.g. `Psalter.epub`. */
  fileName: string;
  mediaType: string;
}

/**
 * What an executor is given. Progress is the executor's heartbeat too: the queue renews the
 * job's lease with it, and answers with `signal` aborted when the job is no longer this run's
 * (cancelled, restarted, or its lease taken over after the worker was thought dead) or the
 * server is stopping: an executor checks `signal` between steps and stops without writing more.
 */
export interface JobContext {
  job: RunningJob;
  services: Services;
  /** Aborted when this run must stop; `signal.reason` says why. */
  signal: AbortSignal;
  /** `done` of `total` steps (pages, images), and what is being done now. */
  progress(done: number, total: number | null, message?: string): Promise<void>;
  /** A folder of this run's own for temporary files, removed when the run ends. */
  workDir: string;
  /** Keeps the file for download (`GET pim/jobs/download/{uuid}`); one per job, the last wins. */
  output(file: JobOutputFile): Promise<void>;
  /** Facts for the job's record: counts, skipped items, versions of tools used. */
  note(result: Record<string, unknown>): void;
  log: { info(message: string): void; warn(message: string): void };
}

/**
 * Runs one job of a type. It returns when the work is done; a thrown error fails the job with
 * its message (an AppError's message is shown to the user as it is, so make it say what went
 * wrong and what to do). Executors are re-run after a crash: what they write must be safe to
 * write again (skip what a previous run already finished, replace rather than add twice).
 */
export type Executor = (ctx: JobContext) => Promise<void>;

/** The executors of the job types a worker runs, by type (`executors/index.ts` is the server's). */
export type ExecutorRegistry = Partial<Record<JobType, Executor>>;
