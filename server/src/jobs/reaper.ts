import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './queue.js';

/**
 * Takes back, every little while, the running jobs whose lease expired (their worker died or lost
 * its connection): they are queued again, or failed after their last attempt. Every server runs
 * one, with or without a built-in worker, since remote workers die too; several at once are safe.
 */
export class Reaper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly queue: JobQueue,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Half a lease, between one and thirty seconds: a dead worker's job waits at most about 1.5 leases. */
  get intervalMs(): number {
    return Math.min(30_000, Math.max(1_000, Math.floor(this.queue.options.leaseMs / 2)));
  }

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  sweep(): Promise<void> {
    this.sweeping ??= this.queue
      .reap()
      .then((reaped) => {
        for (const job of reaped) {
          this.log.warn({ job: job.uuid, type: job.type, attempts: job.attempts }, job.state === 'failed' ? job.error! : 'its worker stopped answering: queued again');
        }
      })
      .catch((err: unknown) => this.log.warn({ err }, 'taking back the jobs of stopped workers failed; the next sweep tries again'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }
}
