import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import type { JobType } from '@pim/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { FileStore } from '../platform/storage/file-store.js';
import type { Services } from '../services.js';
import type { ExecutorRegistry } from './executor.js';
import { JobRun } from './job-run.js';
import type { ClaimedJob, ClaimingWorker, JobQueue, QueueEvent } from './queue.js';

export interface WorkerOptions {
  queue: JobQueue;
  /** The types this worker runs are exactly those it has an executor for. */
  executors: ExecutorRegistry;
  services: Services;
  files: FileStore;
  log: FastifyBaseLogger;
  /** How many jobs run at once. */
  concurrency: number;
}

/** A missed notification costs at most this long: the worker also looks for jobs this often. */
const POLL_MS = 5_000;
/** Progress is written at most this often: a few writes a second. */
const PROGRESS_MS = 250;
/** The worker says it is alive (job_worker_seen) this often, well within the queue's window. */
const SEEN_MS = 60_000;
/** How long a stopping worker waits for its executors to notice their signal before it gives their jobs back anyway. */
const STOP_WAIT_MS = 5_000;

const version: string = createRequire(import.meta.url)('../../package.json').version;
/** This start of this process: a pid alone could be an earlier process's, reused after a restart. */
const PROCESS_INSTANCE = randomUUID();

/** How the built-in worker of this process signs the jobs it runs (job.worker). */
export function builtInWorkerIdentity(): ClaimingWorker & { builtIn: { pid: number; instance: string } } {
  const host = os.hostname();
  return {
    name: `${host} built-in worker`,
    host,
    versions: { pim: version, node: process.versions.node },
    builtIn: { pid: process.pid, instance: PROCESS_INSTANCE },
  };
}

/**
 * The built-in worker: one loop in the server process that claims jobs of the types it has
 * executors for, up to `concurrency` at a time, when told a job was queued (LISTEN/NOTIFY) and
 * every few seconds. Executors run outside any request; stopping aborts them and gives their jobs
 * back to the queue.
 */
export class JobWorker {
  readonly identity = builtInWorkerIdentity();
  readonly types: JobType[];
  private readonly runs = new Map<string, JobRun>();
  private filling: Promise<void> | undefined;
  private fillAgain = false;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly options: WorkerOptions) {
    this.types = Object.keys(options.executors) as JobType[];
  }

  /** The uuids of the jobs running here now. */
  get running(): string[] {
    return [...this.runs.keys()];
  }

  async start(): Promise<void> {
    const { queue, log } = this.options;
    if (this.types.length === 0) {
      log.info('the built-in worker has no executors: this server runs no jobs itself');
      return;
    }
    this.unsubscribe = await queue.subscribe((event) => this.onEvent(event));
    // A previous process on this host that ended mid-job (kill -9, a crash) left runs no one will finish.
    const restarted = await queue.reapEndedBuiltIns(this.identity.host!, (builtIn) => this.hasEnded(builtIn));
    if (restarted.length > 0) log.info(`took back ${restarted.length} jobs that a stopped server was running`);
    await this.markSeen();
    this.timers.push(
      setInterval(() => void this.fill(), POLL_MS),
      setInterval(() => void this.markSeen(), SEEN_MS),
    );
    for (const timer of this.timers) timer.unref();
    log.info(`the built-in worker runs ${this.types.join(', ')}, ${this.options.concurrency} at a time`);
    void this.fill();
  }

  /** Claims jobs until every slot is busy or the queue has none of our types; overlapping calls run once more after. */
  fill(): Promise<void> {
    if (this.stopping || this.types.length === 0) return Promise.resolve();
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = this.claimWhileFree()
      .catch((err: unknown) => this.options.log.error({ err }, 'claiming jobs failed; the worker tries again shortly'))
      .finally(() => {
        this.filling = undefined;
      });
    return this.filling;
  }

  /** Aborts the running executors, waits a little for them, and gives their jobs back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.unsubscribe?.().catch(() => undefined);
    await this.filling;
    const runs = [...this.runs.values()];
    for (const run of runs) run.stop();
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_WAIT_MS);
    });
    await Promise.race([Promise.all(runs.map((r) => r.settled)), patience]);
    clearTimeout(timer);
    await Promise.all(runs.map((r) => r.releaseNow()));
  }

  private async claimWhileFree(): Promise<void> {
    do {
      this.fillAgain = false;
      while (!this.stopping && this.runs.size < this.options.concurrency) {
        const claimed = await this.options.queue.claim(this.types, this.identity, undefined, true);
        if (!claimed) break;
        this.launch(claimed);
      }
    } while (this.fillAgain && !this.stopping);
  }

  private launch(claimed: ClaimedJob): void {
    const { queue, executors, services, files, log } = this.options;
    const run = new JobRun(claimed, {
      queue,
      executors,
      services,
      files,
      log,
      progressMs: PROGRESS_MS,
      heartbeatMs: Math.max(100, Math.floor(queue.options.leaseMs / 3)),
    });
    this.runs.set(run.uuid, run);
    void run.settled.finally(() => {
      this.runs.delete(run.uuid);
      void this.fill();
    });
  }

  private onEvent(event: QueueEvent): void {
    if (event.kind === 'revoked') this.runs.get(event.uuid)?.revoke();
    else if (this.types.includes(event.type as JobType)) void this.fill();
  }

  private async markSeen(): Promise<void> {
    const { name, host, versions } = this.identity;
    await this.options.queue
      .markSeen(name, this.types, { host, versions, builtIn: true })
      .catch((err: unknown) => this.options.log.warn({ err }, 'could not record that the built-in worker is alive'));
  }

  /** Whether the process that claimed a run has ended: another pid that no longer runs, or an earlier start of this pid. */
  private hasEnded(builtIn: { pid: number; instance: string }): boolean {
    if (builtIn.pid === process.pid) return builtIn.instance !== this.identity.builtIn.instance;
    try {
      process.kill(builtIn.pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code !== 'EPERM';
    }
  }
}
