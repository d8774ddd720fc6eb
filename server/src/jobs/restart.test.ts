import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@pim/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../platform/db/database.js';
import { heldExecutor, waitForJob } from '../test-support/jobs.js';
import { call, signedInUser } from '../test-support/test-app.js';
import { openTestDatabase } from '../test-support/test-db.js';
import { createSet } from '../test-support/upload-files.js';
import type { ExecutorRegistry } from './executor.js';

/**
 * The server stops and starts again on the same data: on PGlite the same data dir (the database
 * in it), on PostgreSQL the same database. Jobs are rows, so they are all still there; a job that
 * was running when the server stopped was given back to the queue and runs again.
 */
describe('jobs across a restart of the server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-restart-'));
  let shared: Database | undefined;
  beforeAll(async () => {
    if (process.env.PIM_TEST_DB === 'postgres') shared = await openTestDatabase();
  });
  afterAll(async () => {
    await shared?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (executors: ExecutorRegistry): Promise<FastifyInstance> =>
    buildApp(loadConfig({ PIM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://pim.test', PIM_WORKER: 'true' }), {
      executors,
      ...(shared && { database: shared }),
    });

  it('keeps queued jobs, and runs again the job that was running when the server stopped', async () => {
    const before = heldExecutor();
    const first = await start({ Epubify: before.executor });
    const user = await signedInUser(first, { name: 'Owner' });
    const setId = await createSet(first, user.auth, 'Psalter');
    const create = async (app: FastifyInstance, jobType: string): Promise<Job> =>
      (await call(app, { method: 'POST', url: '/api/pim/jobs', headers: user.auth, payload: { imageSet: setId, jobType } })).json;

    const running = await create(first, 'Epubify');
    const run = await before.run(0);
    await run.ctx.progress(1, 2, 'half way');
    await waitForJob(first, user.auth, running.id, (j) => j.progress?.done === 1);
    // No worker of these servers runs P2PaLA: it waits through the restart.
    const waiting = await create(first, 'P2PaLA');
    await first.close();
    expect(await run.ended).toBe('aborted');

    const after = heldExecutor();
    const second = await start({ Epubify: after.executor });
    try {
      expect(await waitForJob(second, user.auth, waiting.id, () => true)).toMatchObject({ state: 'notStarted', waitingFor: 'Waiting for a worker that runs P2PaLA.' });
      const again = await after.run(0);
      expect(again.ctx.job.uuid).toBe(running.uuid);
      again.finish();
      // Given back by a stopping server, the first run does not count as an attempt.
      expect(await waitForJob(second, user.auth, running.id, (j) => j.state === 'done')).toMatchObject({ attempts: 1 });
    } finally {
      await second.close();
    }
  });
});
