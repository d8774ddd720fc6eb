import type { JobType, WorkerIdentity } from '@pim/contract';
import { RefusedError, UnreachableError, type WorkerClient } from './client.js';
import { runRemoteJob } from './remote-run.js';
import type { Runner } from './runners.js';
import { sleep, type WorkerLog } from './worker-log.js';

export interface WorkerLoopOptions {
  client: WorkerClient;
  runners: Map<JobType, Runner>;
  /** The worker's name and versions (its own, its tools'): recorded on every job it runs. */
  identity: WorkerIdentity;
  /** How many jobs run at once. */
  concurrency: number;
  /** How long to wait after a claim that found no job. */
  pollMs: number;
  log: WorkerLog;
}

/** Waiting after the server could not be reached doubles from 1 s up to this. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The `pim worker` loop: `concurrency` slots, each claiming a job of the worker's types, running
 * it, and claiming again; a claim that finds none waits `pollMs`. When the server cannot be
 * reached it says so and tries again, waiting longer each time. `stop()` ends the claims, and the
 * running jobs go back to the queue; a refused claim (a wrong key) stops the worker with its reason.
 */
export class WorkerLoop {
  private readonly stopper = new AbortController();
  private fatal: Error | undefined;
  private backoffMs = 0;

  constructor(private readonly options: WorkerLoopOptions) {}

  /** Runs until stopped (resolves) or refused by the server (rejects with the reason). */
  async run(): Promise<void> {
    const { concurrency, runners, log, identity } = this.options;
    log.info(`${identity.name} runs ${[...runners.keys()].join(', ')}, ${concurrency} at a time`);
    await Promise.all(Array.from({ length: concurrency }, () => this.slot()));
    if (this.fatal) throw this.fatal;
  }

  /** Stops claiming; the jobs running are released to the queue, once each. */
  stop(): void {
    this.stopper.abort();
  }

  get stopping(): boolean {
    return this.stopper.signal.aborted;
  }

  private async slot(): Promise<void> {
    const { client, runners, identity, pollMs, log } = this.options;
    const signal = this.stopper.signal;
    const types = [...runners.keys()];
    while (!signal.aborted) {
      let job;
      try {
        job = await client.claim(identity, types);
        if (this.backoffMs > 0) log.info('reached the server again');
        this.backoffMs = 0;
      } catch (err) {
        if (err instanceof UnreachableError) {
          this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs === 0 ? 1000 : this.backoffMs * 2);
          log.warn(`${err.message}; trying again in ${this.backoffMs / 1000} s`);
          await sleep(this.backoffMs, signal);
          continue;
        }
        this.fatal = err instanceof RefusedError ? new Error(`The server refused this worker: ${err.message}`) : (err as Error);
        this.stop();
        return;
      }
      if (!job) {
        await sleep(pollMs, signal);
        continue;
      }
      log.info(`claimed job ${job.id} (${job.type}, ${job.images.length} image${job.images.length === 1 ? '' : 's'})`);
      await runRemoteJob(job, { client, runner: runners.get(job.type)!, log, stopping: signal });
    }
  }
}
