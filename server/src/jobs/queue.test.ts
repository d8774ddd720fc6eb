import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { queueJob } from '../test-support/jobs.js';
import type { ClaimingWorker, JobQueue, QueueEvent } from './queue.js';

const worker: ClaimingWorker = { name: 'test worker', host: 'test-host', versions: { pim: 'test' } };

describe('the job queue', () => {
  let t: TestApp;
  let queue: JobQueue;
  beforeAll(async () => {
    t = await createTestApp();
    queue = t.app.services.jobQueue;
  });
  afterAll(() => t.close());
  // Each test starts with an empty queue, so one test's jobs are never another's next claim.
  beforeEach(async () => {
    for (;;) {
      const left = await queue.claim(['GenerateManifests', 'SplitPDF', 'P2PaLA', 'Epubify'], worker);
      if (!left) break;
      await queue.complete(left.row.uuid, left.leaseToken);
    }
  });

  const state = async (uuid: string) => (await t.app.services.jobs.get(adminKey(), uuid)).record;

  it('claims by priority (lower first), then in the order jobs were queued, only of the types asked for', async () => {
    const late = await queueJob(t.app, { type: 'GenerateManifests', priority: 50 });
    const urgent = await queueJob(t.app, { type: 'SplitPDF', priority: 10 });
    const early = await queueJob(t.app, { type: 'GenerateManifests', priority: 10 });
    const other = await queueJob(t.app, { type: 'P2PaLA', priority: 0 });
    // `early` was queued after `urgent`, at the same priority.
    const order: string[] = [];
    for (;;) {
      const claimed = await queue.claim(['GenerateManifests', 'SplitPDF'], worker);
      if (!claimed) break;
      order.push(claimed.row.uuid);
    }
    expect(order).toEqual([urgent.uuid, early.uuid, late.uuid]);
    expect((await state(other.uuid)).state).toBe('queued');
    expect(await queue.claim([], worker)).toBeNull();
  });

  it('records the claim: running, the attempt, the lease and who runs it since when', async () => {
    const job = await queueJob(t.app, { type: 'Epubify' });
    const claimed = (await queue.claim(['Epubify'], worker))!;
    expect(claimed.row).toMatchObject({ uuid: job.uuid, state: 'running', attempts: 1, lease_token: claimed.leaseToken });
    expect(claimed.row.lease_expires_at!.getTime()).toBeGreaterThan(claimed.row.started_at!.getTime());
    expect(claimed.row.worker).toMatchObject({ name: 'test worker', host: 'test-host', versions: { pim: 'test' }, timings: { queued: expect.any(String), started: expect.any(String) } });
  });

  it('renews a lease with progress, completes, and refuses every report with a stale token as "no longer yours"', async () => {
    const job = await queueJob(t.app, { type: 'Epubify' });
    const claimed = (await queue.claim(['Epubify'], worker))!;
    const before = claimed.row.lease_expires_at!;
    const renewed = await queue.heartbeat(job.uuid, claimed.leaseToken, { done: 3, total: 10, message: 'page 3' });
    expect(renewed.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect((await state(job.uuid)).progress).toEqual({ done: 3, total: 10, message: 'page 3' });

    const stale = '00000000-0000-4000-8000-000000000000';
    const notYours = { status: 409, code: 'job_not_yours', message: expect.stringContaining('This job is no longer yours') };
    await expect(queue.heartbeat(job.uuid, stale)).rejects.toMatchObject(notYours);
    await expect(queue.complete(job.uuid, stale)).rejects.toMatchObject(notYours);
    await expect(queue.fail(job.uuid, stale, 'no')).rejects.toMatchObject(notYours);

    await queue.complete(job.uuid, claimed.leaseToken, { result: { pages: 10 }, progress: { done: 10, total: 10, message: 'done' } });
    const done = await state(job.uuid);
    expect(done).toMatchObject({ state: 'done', result: { pages: 10 }, progress: { done: 10, total: 10, message: 'done' } });
    expect(done.worker?.timings.finished).toEqual(expect.any(String));
    // Done is done: the token that completed it reports nothing more.
    await expect(queue.heartbeat(job.uuid, claimed.leaseToken)).rejects.toMatchObject(notYours);
    await expect(queue.fail(job.uuid, claimed.leaseToken, 'late')).rejects.toMatchObject(notYours);
  });

  it('takes back a job whose lease expired, runs it again, and fails it with a clear error after the last attempt', async () => {
    const job = await queueJob(t.app, { type: 'Epubify', maxAttempts: 2 });
    const first = (await queue.claim(['Epubify'], worker, 0))!;
    const reaped = await queue.reap();
    expect(reaped.map((r) => [r.uuid, r.state])).toEqual([[job.uuid, 'queued']]);
    expect(await state(job.uuid)).toMatchObject({ state: 'queued', attempts: 1, startedAt: null, progress: { message: 'Waiting to start again: the worker that ran it stopped answering.' } });
    await expect(queue.heartbeat(job.uuid, first.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });

    const second = (await queue.claim(['Epubify'], worker, 0))!;
    expect(second.row).toMatchObject({ uuid: job.uuid, attempts: 2 });
    await queue.reap();
    expect(await state(job.uuid)).toMatchObject({
      state: 'failed',
      attempts: 2,
      error: 'The job was started 2 times and each time its worker stopped answering (it crashed, was stopped or lost its connection), so it is not tried again. Restart it to try once more.',
    });
    expect(await queue.claim(['Epubify'], worker)).toBeNull();
  });

  it('leaves alone a running job whose lease is alive', async () => {
    const job = await queueJob(t.app, { type: 'Epubify' });
    await queue.claim(['Epubify'], worker);
    expect(await queue.reap()).toEqual([]);
    expect((await state(job.uuid)).state).toBe('running');
  });

  it('gives a job back without counting the run when its worker stops, and it is claimed again', async () => {
    const job = await queueJob(t.app, { type: 'Epubify' });
    const claimed = (await queue.claim(['Epubify'], worker))!;
    await queue.release(job.uuid, claimed.leaseToken);
    expect(await state(job.uuid)).toMatchObject({ state: 'queued', attempts: 0 });
    await expect(queue.release(job.uuid, claimed.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });
    expect((await queue.claim(['Epubify'], worker))!.row).toMatchObject({ uuid: job.uuid, attempts: 1 });
  });

  it('restarts a running job with a new lease, so the old run is refused, and cancels only from the states asked', async () => {
    const job = await queueJob(t.app, { type: 'Epubify' });
    const old = (await queue.claim(['Epubify'], worker))!;
    expect((await queue.cancel({ kind: 'uuid', uuid: job.uuid }, ['queued']))?.changed).toBe(false);
    expect((await queue.restart({ kind: 'uuid', uuid: job.uuid }, ['running']))?.changed).toBe(true);
    await expect(queue.complete(job.uuid, old.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });
    const again = (await queue.claim(['Epubify'], worker))!;
    expect(again.row.uuid).toBe(job.uuid);
    expect(again.leaseToken).not.toBe(old.leaseToken);
    expect((await queue.cancel({ kind: 'id', id: job.id }, ['queued', 'running']))?.changed).toBe(true);
    await expect(queue.heartbeat(job.uuid, again.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });
    expect((await state(job.uuid)).state).toBe('cancelled');
    expect(await queue.cancel({ kind: 'id', id: 987654 }, ['queued'])).toBeUndefined();
  });

  it('tells listeners of queued and withdrawn jobs', async () => {
    const events: QueueEvent[] = [];
    let heard!: () => void;
    const revoked = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const stop = await queue.subscribe((e) => {
      events.push(e);
      if (e.kind === 'revoked') heard();
    });
    try {
      const job = await queueJob(t.app, { type: 'Epubify' });
      await queue.claim(['Epubify'], worker);
      await queue.cancel({ kind: 'uuid', uuid: job.uuid }, ['running']);
      await revoked;
      expect(events).toEqual([
        { kind: 'queued', type: 'Epubify' },
        { kind: 'revoked', uuid: job.uuid },
      ]);
    } finally {
      await stop();
    }
  });

  it('says which types a worker asked for lately', async () => {
    expect(await queue.servedTypes()).toEqual(new Set());
    await queue.markSeen('gpu-1', ['P2PaLA', 'KrakenHocr'], { host: 'gpu-1' });
    await queue.markSeen('gpu-1', ['P2PaLA']);
    expect(await queue.servedTypes()).toEqual(new Set(['P2PaLA', 'KrakenHocr']));
  });
});

/** An admin API key's rights, to read any job through the service. */
function adminKey() {
  return { kind: 'apikey' as const, apiKeyId: '00000000-0000-4000-8000-00000000000a', userName: 'test', userId: null, roles: ['AUTHENTICATED', 'ADMIN'] };
}
