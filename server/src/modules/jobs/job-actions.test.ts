import { JOB_TYPES, type Job, type JobTypeListItem, P2PALA_OPTIONS, type SubJob } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimingWorker } from '../../jobs/queue.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet } from '../../test-support/upload-files.js';

type Auth = Record<string, string>;
const worker: ClaimingWorker = { name: 'gpu-1', host: 'gpu-1', versions: { pim: 'test', p2pala: '1.0' } };

describe('the jobs calls: cancel, restart, download, types, P2PaLA and Siamese records', () => {
  let t: TestApp;
  let owner: Auth;
  let stranger: Auth;
  let admin: Auth;
  let minion: Auth;
  let adminKey: Auth;
  let setId: string;

  const post = (auth: Auth, url: string, payload?: object) => call(t.app, { method: 'POST', url: `/api/pim/${url}`, headers: auth, ...(payload && { payload }) });
  const get = (auth: Auth, url: string) => call(t.app, { method: 'GET', url: `/api/pim/${url}`, headers: auth });
  const create = async (auth: Auth, payload: object): Promise<Job> => {
    const res = await post(auth, 'jobs', payload);
    if (res.status !== 200) throw new Error(`create: ${res.status} ${res.res.body}`);
    return res.json;
  };
  /** Claims the job as a remote worker would, so it runs. */
  const claim = async (job: Job) => {
    const claimed = await t.app.services.jobQueue.claim([job.jobType], worker);
    expect(claimed?.row.uuid).toBe(job.uuid);
    return claimed!;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = (await signedInUser(t.app, { name: 'Owner' })).auth;
    stranger = (await signedInUser(t.app)).auth;
    admin = (await signedInUser(t.app, { admin: true })).auth;
    const key = async (roles: string[]) => ({ authorization: `ApiKey ${(await post(admin, 'apikey', { userName: roles.join() || 'plain', roles })).json.apiKey}` });
    minion = await key(['MINION']);
    adminKey = await key(['ADMIN']);
    setId = await createSet(t.app, owner, 'Psalter');
  });
  afterAll(() => t.close());

  it('cancels a job that has not started, and says why it cannot cancel another', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'Epubify' });
    expect((await post(stranger, `jobs/${job.id}/cancel`)).status).toBe(404);
    const cancelled = await post(owner, `jobs/${job.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ uuid: job.uuid, state: 'cancelled', jobOrder: null, waitingFor: null, endDate: expect.any(String) });
    const again = await post(owner, `jobs/${job.uuid}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(`Job ${job.id} is cancelled already.`);

    const running = await create(owner, { imageSet: setId, jobType: 'Epubify' });
    await claim(running);
    const refused = await post(owner, `jobs/${running.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(`Job ${running.id} is running: only a job that has not started can be cancelled.`);
    expect((await get(owner, `jobs/${running.id}`)).json).toMatchObject({ state: 'running', inProgress: true, startDate: expect.any(String), attempts: 1, worker: { name: 'gpu-1', host: 'gpu-1', versions: { p2pala: '1.0' } } });
  });

  it('restarts a running, failed or cancelled job from the start, and tells the run that held it', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'Epubify' });
    const notStarted = await post(owner, `jobs/${job.id}/restart`);
    expect(notStarted.status).toBe(409);
    expect(notStarted.json.message).toBe(`Job ${job.id} has not started yet: it waits in the queue, and only a job that has started can be restarted.`);

    const run = await claim(job);
    await t.app.services.jobQueue.heartbeat(job.uuid, run.leaseToken, { done: 4, total: 9, message: 'page 4' });
    const restarted = await post(owner, `jobs/${job.uuid}/restart`);
    expect(restarted.status).toBe(200);
    expect(restarted.json).toMatchObject({ state: 'notStarted', startDate: null, attempts: 0, progress: { done: 0, total: null, message: 'Restarted: waiting to start from the beginning.' } });
    await expect(t.app.services.jobQueue.heartbeat(job.uuid, run.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });

    const rerun = await claim(job);
    await t.app.services.jobQueue.fail(job.uuid, rerun.leaseToken, 'The set has no images.');
    expect((await get(owner, `jobs/${job.id}`)).json).toMatchObject({ state: 'failed', error: 'The set has no images.', done: false });
    expect((await post(admin, `jobs/${job.id}/restart`)).json).toMatchObject({ state: 'notStarted', error: null });

    const done = await claim(job);
    await t.app.services.jobQueue.complete(job.uuid, done.leaseToken);
    const refused = await post(owner, `jobs/${job.id}/restart`);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(`Job ${job.id} is done: create a new job to run it again.`);
  });

  it('downloads the file of a done job under its name; before, or without one, says why not', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'PipelineKB2' });
    const waiting = await get(owner, `jobs/download/${job.uuid}`);
    expect(waiting.status).toBe(404);
    expect(waiting.json.message).toBe(`Job ${job.id} has not started yet: its file can be downloaded once it is done.`);

    const run = await claim(job);
    const files = t.app.services.files;
    const first = await files.stage(Buffer.from('first draft'));
    await t.app.services.jobQueue.attachOutput(job.uuid, run.leaseToken, first, { fileName: 'draft.epub', mediaType: 'application/epub+zip' });
    const epub = await files.stage(Buffer.from('PK final epub bytes'));
    await t.app.services.jobQueue.attachOutput(job.uuid, run.leaseToken, epub, { fileName: '../Psalter é.epub', mediaType: 'application/epub+zip' });
    expect((await get(owner, `jobs/download/${job.uuid}`)).json.message).toBe(`Job ${job.id} is still running: its file can be downloaded once it is done.`);
    await t.app.services.jobQueue.complete(job.uuid, run.leaseToken);

    expect((await get(owner, `jobs/${job.id}`)).json.downloadUri).toBe(`pim/jobs/download/${job.uuid}`);
    const res = await get(owner, `jobs/download/${job.uuid}`);
    expect(res.status).toBe(200);
    expect(res.res.body).toBe('PK final epub bytes');
    expect(res.res.headers['content-type']).toBe('application/epub+zip');
    expect(res.res.headers['content-disposition']).toBe(`attachment; filename="Psalter _.epub"; filename*=UTF-8''Psalter%20%C3%A9.epub`);
    // The last output wins: the first one's row is gone, so `pim files gc` frees its bytes.
    const names = await t.app.database.db.selectFrom('stored_file').select('original_name').where('original_name', 'in', ['draft.epub', 'Psalter é.epub']).execute();
    expect(names.map((n) => n.original_name)).toEqual(['Psalter é.epub']);
    expect((await get(stranger, `jobs/download/${job.uuid}`)).status).toBe(404);

    const plain = await create(owner, { imageSet: setId, jobType: 'SetBrokenNull' });
    const plainRun = await claim(plain);
    await t.app.services.jobQueue.complete(plain.uuid, plainRun.leaseToken);
    expect((await get(owner, `jobs/download/${plain.uuid}`)).json.message).toBe(`Job ${plain.id} made no file to download.`);
  });

  it('refuses the output of a run that no longer holds its job, and keeps nothing of it', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'ScriptCompare' });
    const run = await claim(job);
    await post(owner, `jobs/${job.id}/restart`);
    const staged = await t.app.services.files.stage(Buffer.from('late csv'));
    await expect(t.app.services.jobQueue.attachOutput(job.uuid, run.leaseToken, staged, { fileName: 'late.csv', mediaType: 'text/csv' })).rejects.toMatchObject({
      code: 'job_not_yours',
    });
    expect(await t.app.database.db.selectFrom('stored_file').select('id').where('original_name', '=', 'late.csv').execute()).toEqual([]);
    expect(() => t.app.services.files.pathOf(staged.sha256)).not.toThrow();
    await expect(t.app.services.files.read(staged.sha256)).rejects.toMatchObject({ status: 404 });
  });

  it('lists every type with its form and whether a worker serving it was seen lately; a job no one serves says what it waits for', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'P2PaLA' });
    expect(job.waitingFor).toBe('Waiting for a worker that runs P2PaLA.');
    const before = (await get(owner, 'jobs/types')).json as JobTypeListItem[];
    expect(before.map((i) => i.type)).toEqual([...JOB_TYPES]);
    expect(before.find((i) => i.type === 'PipelineKB2')).toMatchObject({ runsHere: true, download: true, fields: ['imageSet'], required: ['imageSet'] });
    expect(before.every((i) => !i.served)).toBe(true);

    await t.app.services.jobQueue.markSeen('gpu-1', ['P2PaLA'], { host: 'gpu-1' });
    const after = (await get(owner, 'jobs/types')).json as JobTypeListItem[];
    expect(after.filter((i) => i.served).map((i) => i.type)).toEqual(['P2PaLA']);
    expect((await get(owner, `jobs/${job.id}`)).json.waitingFor).toBeNull();
  });

  it('refuses MINION keys every call of people (they claim through the worker calls), and lets an admin key make and see jobs', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'Epubify' });
    for (const [method, url] of [
      ['GET', 'jobs'],
      ['GET', 'jobs/types'],
      ['GET', `jobs/${job.id}`],
      ['POST', `jobs/${job.id}/cancel`],
      ['POST', `jobs/${job.id}/restart`],
      ['GET', `jobs/download/${job.uuid}`],
      ['GET', 'p2palajob'],
      ['GET', 'p2palajob/outmode'],
      ['GET', 'siamesejob'],
    ] as const) {
      const res = await call(t.app, { method, url: `/api/pim/${url}`, headers: minion });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.json.message).toBe('An API key with the MINION role belongs to a remote worker: it claims and runs jobs through the worker calls, and may not use these.');
    }
    const refused = await post(minion, 'jobs', { imageSet: setId, jobType: 'Epubify' });
    expect(refused.status).toBe(403);

    const byKey = await create(adminKey, { imageSet: setId, jobType: 'Epubify' });
    expect(byKey.owner).toBeNull();
    expect((await get(adminKey, 'jobs?onlyOwnData=true')).json.results.map((j: Job) => j.uuid)).toEqual([byKey.uuid]);
    expect((await get(owner, `jobs/${byKey.id}`)).status).toBe(404);
  });

  it('keeps a P2PaLA job its own record, whose state follows the job that runs it, and cancels it waiting or running', async () => {
    // First in the queue, ahead of the P2PaLA job an earlier test left waiting.
    const job = await create(owner, { imageSet: setId, jobType: 'P2PaLA', exp_name: 'psalter', out_mode: 'LR', priority: 0 });
    const records = (await get(owner, 'p2palajob')).json as SubJob[];
    const record = records.find((r) => r.wrapper === job.uuid)!;
    expect(record).toMatchObject({ inProgress: false, startDate: null, done: false, errors: null, imageSet: { uuid: setId, name: 'Psalter' }, networkSpec: null });
    expect(record.config).toMatchObject({ exp_name: 'psalter', out_mode: 'LR', line_color: 128 });
    expect(record.config).not.toHaveProperty('imageSet');
    expect((await get(stranger, 'p2palajob')).json).toEqual([]);
    expect((await get(admin, 'p2palajob')).json.map((r: SubJob) => r.uuid)).toContain(record.uuid);

    const run = await claim(job);
    const running = ((await get(owner, 'p2palajob')).json as SubJob[]).find((r) => r.uuid === record.uuid)!;
    expect(running).toMatchObject({ inProgress: true, startDate: expect.any(String) });

    expect((await post(stranger, `p2palajob/${record.uuid}/cancel`)).status).toBe(404);
    const cancelled = await post(owner, `p2palajob/${record.uuid}/cancel`);
    expect(cancelled.status).toBe(204);
    expect(cancelled.res.body).toBe('');
    expect((await get(owner, `jobs/${job.id}`)).json.state).toBe('cancelled');
    await expect(t.app.services.jobQueue.complete(job.uuid, run.leaseToken)).rejects.toMatchObject({ code: 'job_not_yours' });
    const again = await post(owner, `p2palajob/${record.uuid}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(`Job ${job.id} was cancelled: only a job that waits or runs can be cancelled.`);
  });

  it('keeps a Siamese job its record with its network spec', async () => {
    const job = await create(owner, { imageSet: setId, jobType: 'SiameseNetwork', networkSpec: 'resnet18', training: true, siameseChannels: 1 });
    const record = ((await get(owner, 'siamesejob')).json as SubJob[]).find((r) => r.wrapper === job.uuid)!;
    expect(record).toMatchObject({ networkSpec: 'resnet18', config: { training: true, siameseChannels: 1, learningRate: 0.003 } });
    expect(record.config).not.toHaveProperty('networkSpec');
    expect((await post(owner, `siamesejob/${record.uuid}/cancel`)).status).toBe(204);
    expect(((await get(owner, 'siamesejob')).json as SubJob[]).find((r) => r.uuid === record.uuid)).toMatchObject({ inProgress: false, done: false });
    expect((await post(owner, 'siamesejob/not-a-uuid/cancel')).status).toBe(400);
  });

  it("gives P2PaLA's option lists", async () => {
    for (const list of ['approxalg', 'outmode', 'linealg', 'loglevel'] as const) {
      const res = await get(owner, `p2palajob/${list}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual([...P2PALA_OPTIONS[list]]);
    }
    expect((await get({}, 'p2palajob/outmode')).status).toBe(401);
  });
});
