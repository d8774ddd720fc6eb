import type { Job, JobType } from '@pim/contract';
import type { FastifyInstance } from 'fastify';
import type { Executor, JobContext } from '../jobs/executor.js';
import type { JobRequest, JobRow } from '../jobs/queue.js';
import { call } from './test-app.js';

/** One run of a held executor: its context, and the test's say over when it ends. */
export interface HeldRun {
  ctx: JobContext;
  /** Lets the run return (the job is then done, unless it was taken from it). */
  finish(): void;
  /** Lets the run throw this error. */
  fail(err: unknown): void;
  /** Settles when the executor has returned or thrown: how it ended. */
  ended: Promise<'finished' | 'failed' | 'aborted'>;
}

/**
 * An executor whose runs wait for the test: each run is announced with its context and ends when
 * the test finishes or fails it, or (unless `ignoreAbort`) when its signal aborts. So a test can
 * act while a job runs without timing anything.
 */
export function heldExecutor(options: { ignoreAbort?: boolean } = {}) {
  const runs: HeldRun[] = [];
  const waiters: (() => void)[] = [];
  const executor: Executor = async (ctx) => {
    let finish!: () => void;
    let fail!: (err: unknown) => void;
    let settle!: (how: 'finished' | 'failed' | 'aborted') => void;
    const ended = new Promise<'finished' | 'failed' | 'aborted'>((resolve) => {
      settle = resolve;
    });
    const outcome = new Promise<void>((resolve, reject) => {
      finish = () => resolve();
      fail = reject;
      if (!options.ignoreAbort) ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
    });
    runs.push({ ctx, finish, fail, ended });
    for (const wake of waiters.splice(0)) wake();
    try {
      await outcome;
      settle('finished');
    } catch (err) {
      settle(ctx.signal.aborted && err === ctx.signal.reason ? 'aborted' : 'failed');
      throw err;
    }
  };
  return {
    executor,
    /** The nth run (from 0), once it has started. */
    async run(n: number): Promise<HeldRun> {
      while (runs.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
      return runs[n]!;
    },
    get started(): number {
      return runs.length;
    },
  };
}

/** Queues a job directly (no request, no checks): for tests of the queue itself. */
export function queueJob(app: FastifyInstance, job: Partial<JobRequest> & { type: JobType }): Promise<JobRow> {
  return app.services.jobQueue.enqueue({ priority: 50, settings: {}, setId: null, ownerId: null, apiKeyId: null, ...job });
}

/**
 * Asks for the job (`GET pim/jobs/{id}`) until it is as `wanted` says, and returns it. It waits for
 * a state, not for a time: the test's time limit ends it if the state never comes.
 */
export async function waitForJob(
  app: FastifyInstance,
  auth: Record<string, string>,
  id: string | number,
  wanted: (job: Job) => boolean,
): Promise<Job> {
  for (;;) {
    const res = await call(app, { method: 'GET', url: `/api/pim/jobs/${id}`, headers: auth });
    if (res.status !== 200) throw new Error(`GET pim/jobs/${id}: ${res.status} ${res.res.body}`);
    if (wanted(res.json as Job)) return res.json as Job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
