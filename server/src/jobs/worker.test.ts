import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Job } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { heldExecutor, waitForJob } from '../test-support/jobs.js';
import { call, createTestApp, signedInUser, type TestApp } from '../test-support/test-app.js';
import { createSet } from '../test-support/upload-files.js';
import { builtInWorkerIdentity, JobWorker } from './worker.js';

type Auth = Record<string, string>;

describe('the built-in worker', () => {
  const held = heldExecutor();
  const stubborn = heldExecutor({ ignoreAbort: true });
  let t: TestApp;
  let owner: Auth;
  let ownerId: string;
  let setId: string;

  beforeAll(async () => {
    t = await createTestApp({ PIM_JOB_CONCURRENCY: '1'}, { executors: { Epubify: held.executor, ScriptCompare: stubborn.executor } });
    const user = await signedInUser(t.app, { name: 'Owner' });
    owner = user.auth;
    ownerId = user.userId;
    setId = await createSet(t.app, owner, 'Psalter');
  });
  afterAll(() => t?.close());

  const create = async (jobType: string, extra: object = {}): Promise<Job> => {
    const res = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner, payload: { imageSet: setId, jobType, ...extra } });
    if (res.status !== 200) throw new Error(`create: ${res.status} ${res.res.body}`);
    return res.json;
  };
  const post = (url: string) => call(t.app, { method: 'POST', url: `/api/pim/${url}`, headers: owner });

  it('runs a job of its types with the owner’s rights: progress while it runs, notes and the file once done', async () => {
    expect(t.app.jobWorker?.types).toEqual(['Epubify', 'ScriptCompare']);
    const types = (await call(t.app, { method: 'GET', url: '/api/pim/jobs/types', headers: owner })).json as { type: string; served: boolean }[];
    expect(types.filter((i) => i.served).map((i) => i.type).sort()).toEqual(['Epubify', 'ScriptCompare']);

    const job = await create('Epubify');
    const run = await held.run(0);
    expect(run.ctx.job).toMatchObject({ uuid: job.uuid, type: 'Epubify', setId, ownerId, settings: { imageSet: setId, priority: 50, allData: false } });
    expect(run.ctx.job.principal).toMatchObject({ kind: 'user', userId: ownerId, name: 'Owner', roles: ['AUTHENTICATED'] });
    expect(fs.statSync(run.ctx.workDir).isDirectory()).toBe(true);
    expect(path.dirname(path.dirname(run.ctx.workDir))).toBe(path.join(t.dataDir, 'tmp'));

    await run.ctx.progress(1, 3, 'page 1');
    const running = await waitForJob(t.app, owner, job.id, (j) => j.progress?.done === 1);
    expect(running).toMatchObject({ state: 'running', inProgress: true, progress: { done: 1, total: 3, message: 'page 1' }, worker: { name: expect.stringContaining('built-in worker') } });
    expect(running.worker?.versions).toMatchObject({ pim: expect.any(String), node: process.versions.node });

    run.ctx.note({ pages: 3 });
    fs.writeFileSync(path.join(run.ctx.workDir, 'book.epub'), 'epub bytes');
    await run.ctx.output({ path: path.join(run.ctx.workDir, 'book.epub'), fileName: 'Psalter.epub', mediaType: 'application/epub+zip' });
    await run.ctx.progress(3, 3, 'written');
    run.finish();
    const done = await waitForJob(t.app, owner, job.id, (j) => j.state === 'done');
    expect(done).toMatchObject({ done: true, progress: { done: 3, total: 3, message: 'written' }, downloadUri: `pim/jobs/download/${job.uuid}`, endDate: expect.any(String) });
    expect((await t.app.services.jobs.get(run.ctx.job.principal, job.uuid)).record.result).toEqual({ pages: 3 });
    const file = await call(t.app, { method: 'GET', url: `/api/${done.downloadUri}`, headers: owner });
    expect(file.res.body).toBe('epub bytes');
    expect(fs.existsSync(run.ctx.workDir)).toBe(false);
  });

  it('fails a job with the sentence of an AppError, and says an unexpected error is one', async () => {
    const clear = await create('Epubify');
    (await held.run(1)).fail(new AppError(400, 'no_text', 'The set has no transcriptions to put in an EPUB.'));
    expect(await waitForJob(t.app, owner, clear.id, (j) => j.state === 'failed')).toMatchObject({ error: 'The set has no transcriptions to put in an EPUB.', done: false });

    const bug = await create('Epubify');
    (await held.run(2)).fail(new TypeError('pages is not iterable'));
    expect((await waitForJob(t.app, owner, bug.id, (j) => j.state === 'failed')).error).toBe('The job stopped with an unexpected error: pages is not iterable');
  });

  it('aborts a run whose job is restarted, and runs the job again from the start', async () => {
    const job = await create('Epubify');
    const first = await held.run(3);
    expect((await post(`jobs/${job.id}/restart`)).status).toBe(200);
    expect(await first.ended).toBe('aborted');
    expect(first.ctx.signal.reason).toMatchObject({ code: 'job_revoked' });
    const second = await held.run(4);
    expect(second.ctx.job.uuid).toBe(job.uuid);
    second.finish();
    expect(await waitForJob(t.app, owner, job.id, (j) => j.state === 'done')).toMatchObject({ attempts: 1 });
  });

  it('refuses the late completion of a run that ignored its signal after the job was restarted, and the new run decides', async () => {
    const job = await create('ScriptCompare');
    const old = await stubborn.run(0);
    await post(`jobs/${job.id}/restart`);
    await aborted(old.ctx.signal);
    // The worker is free again only once the old run returns; it has not, so the job waits.
    expect((await waitForJob(t.app, owner, job.id, () => true)).state).toBe('notStarted');
    old.finish();
    await old.ended;
    const fresh = await stubborn.run(1);
    expect((await waitForJob(t.app, owner, job.id, () => true)).state).toBe('running');
    fresh.fail(new AppError(400, 'bad', 'The second run failed.'));
    expect(await waitForJob(t.app, owner, job.id, (j) => j.state === 'failed')).toMatchObject({ error: 'The second run failed.' });
  });

  it('aborts a running P2PaLA-like job cancelled from its screen, and a late completion changes nothing', async () => {
    const job = await create('ScriptCompare');
    const run = await stubborn.run(2);
    // What a P2PaLA or Siamese cancel does to its wrapper: cancel it while it runs.
    await t.app.services.jobQueue.cancel({ kind: 'id', id: job.id }, ['running']);
    await aborted(run.ctx.signal);
    run.finish();
    await run.ended;
    expect(await waitForJob(t.app, owner, job.id, () => true)).toMatchObject({ state: 'cancelled', done: false });
  });

  it('fails a job whose owner was disabled before it ran: it acts with its maker’s rights', async () => {
    const other = await signedInUser(t.app, { name: 'Leaver' });
    const set = await createSet(t.app, other.auth, 'Leaver set');
    // Hold the worker's one slot, so the job waits while its owner is disabled.
    const started = held.started;
    const blocker = await create('Epubify');
    const blocking = await held.run(started);
    expect(blocking.ctx.job.uuid).toBe(blocker.uuid);
    const res = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: other.auth, payload: { imageSet: set, jobType: 'Epubify' } });
    await t.app.services.users.setDisabled(other.userId, true);
    blocking.finish();
    const admin = (await signedInUser(t.app, { admin: true })).auth;
    const failed = await waitForJob(t.app, admin, res.json.id, (j) => j.state === 'failed');
    expect(failed.error).toBe('The user or API key that made this job is disabled or deleted, and a job acts with its maker’s rights.');
    expect(held.started).toBe(started + 1);
  });
});

/** Resolves once the signal has aborted (at once if it has). */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

describe('a server that only answers the API', () => {
  it('runs no jobs with PIM_WORKER=false, though it has executors', async () => {
    const held = heldExecutor();
    const t = await createTestApp({ PIM_WORKER: 'false' }, { executors: { Epubify: held.executor } });
    try {
      expect(t.app.jobWorker).toBeNull();
      const user = await signedInUser(t.app);
      const setId = await createSet(t.app, user.auth);
      const job = (await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: user.auth, payload: { imageSet: setId, jobType: 'Epubify' } })).json as Job;
      expect(job).toMatchObject({ state: 'notStarted', waitingFor: 'Waiting for a worker that runs Epubify.' });
      // The reaper runs all the same (remote workers die too); the job stays queued for a worker.
      await t.app.reaper.sweep();
      expect(held.started).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('starting after a crash', () => {
  it('takes back at once the jobs that a built-in worker of an ended process on this host was running, and runs them', async () => {
    const t = await createTestApp();
    const held = heldExecutor();
    let worker: JobWorker | undefined;
    try {
      const user = await signedInUser(t.app);
      const setId = await createSet(t.app, user.auth);
      const job = (await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: user.auth, payload: { imageSet: setId, jobType: 'Epubify' } })).json as Job;
      const gone = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => gone.once('exit', resolve));
      // What the process that was killed recorded when it claimed the job; its lease is still long.
      const dead = { ...builtInWorkerIdentity(), builtIn: { pid: gone.pid!, instance: 'an earlier start' } };
      const crashed = (await t.app.services.jobQueue.claim(['Epubify'], dead))!;
      expect(crashed.row.lease_expires_at!.getTime()).toBeGreaterThan(Date.now());

      worker = new JobWorker({ queue: t.app.services.jobQueue, executors: { Epubify: held.executor }, services: t.app.services, files: t.app.services.files, log: t.app.log, concurrency: 1 });
      await worker.start();
      const run = await held.run(0);
      expect(run.ctx.job.uuid).toBe(job.uuid);
      await expect(t.app.services.jobQueue.heartbeat(job.uuid, crashed.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });
      run.finish();
      expect(await waitForJob(t.app, user.auth, job.id, (j) => j.state === 'done')).toMatchObject({ attempts: 2 });
    } finally {
      await worker?.stop();
      await t.close();
    }
  });
});
