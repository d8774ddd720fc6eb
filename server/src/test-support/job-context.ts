import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CreateJobInput, createJobRequestSchema, type JobType, ROLE } from '@pim/contract';
import type { FastifyInstance } from 'fastify';
import type { Executor, JobContext, JobOutputFile } from '../jobs/executor.js';
import type { Principal } from '../platform/auth/principal.js';

/** What a test sees of a run outside the queue: its progress, notes and output. */
export interface ExecutorRun {
  progress: { done: number; total: number | null; message?: string }[];
  notes: Record<string, unknown>;
  output: (JobOutputFile & { bytes: Buffer }) | null;
  controller: AbortController;
}

/**
 * The rights a job of this owner runs with, as the queue gives them; without an owner, those of an
 * API key with the ADMIN role (a job an admin's key made).
 */
async function principalOf(app: FastifyInstance, ownerId: string | null): Promise<Principal> {
  if (ownerId === null) return { kind: 'apikey', apiKeyId: randomUUID(), userName: 'executor test', userId: null, roles: [ROLE.AUTHENTICATED, ROLE.ADMIN] };
  return app.services.jobQueue.makerOf(ownerId, null);
}

/**
 * Runs an executor directly on the app's services, as the queue would but without a job row: for
 * an executor's own tests. `settings` are the creation payload (defaults filled in by the contract).
 */
export async function runExecutor(
  app: FastifyInstance,
  executor: Executor,
  job: { type: JobType; settings: Omit<CreateJobInput, 'jobType'>; ownerId?: string | null },
  onProgress?: (run: ExecutorRun) => void,
): Promise<ExecutorRun> {
  const settings = createJobRequestSchema.parse({ ...job.settings, jobType: job.type });
  const principal = await principalOf(app, job.ownerId ?? null);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-job-'));
  const run: ExecutorRun = { progress: [], notes: {}, output: null, controller: new AbortController() };
  const ctx: JobContext = {
    job: { id: 0, uuid: randomUUID(), type: job.type, settings, setId: settings.imageSet ?? null, ownerId: job.ownerId ?? null, principal },
    services: app.services,
    signal: run.controller.signal,
    progress: async (done, total, message) => {
      run.progress.push({ done, total, ...(message !== undefined && { message }) });
      onProgress?.(run);
    },
    workDir,
    output: async (file) => {
      run.output = { ...file, bytes: fs.readFileSync(file.path) };
    },
    note: (result) => Object.assign(run.notes, result),
    log: { info: () => undefined, warn: () => undefined },
  };
  try {
    await executor(ctx);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return run;
}
