import { createHash, randomUUID } from 'node:crypto';
import type { Job } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyMlmodel } from '../../test-support/model-files.js';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { claim, minionKey, workerCall } from '../../test-support/workers.js';
import { safeFileName } from './job-models.js';

type Auth = Record<string, string>;
interface Claimed {
  uuid: string;
  id: number;
  leaseToken: string;
  models: { setting: string; id: string; kind: string; label: string; language: string | null; fileName: string; sizeBytes: number; sha256: string }[];
}

describe('the worker call that downloads a model the job names', () => {
  let t: TestApp;
  let owner: Auth;
  let admin: Auth;
  let minion: Auth;
  let setId: string;
  const mlmodel = tinyMlmodel();

  const create = async (payload: object): Promise<Job> => {
    const res = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner, payload: { imageSet: setId, ...payload } });
    if (res.status !== 200) throw new Error(`create: ${res.status} ${res.res.body}`);
    return res.json;
  };
  const claimed = async (types: string[]): Promise<Claimed> => {
    const res = await claim(t.app, minion, types);
    expect(res.status, res.res.body).toBe(200);
    return res.json.job;
  };
  const model = async (kind: 'kraken' | 'tesseract4' | 'p2pala', options: Parameters<typeof createModel>[3] = {}): Promise<string> => {
    const res = await createModel(t.app, admin, kind, options);
    if (res.status !== 201) throw new Error(`model: ${res.status} ${res.res.body}`);
    return res.json.uuid;
  };
  const download = (job: Claimed, modelId: string, auth: Auth = minion, leaseToken = job.leaseToken) =>
    t.app.inject({ method: 'GET', url: `/api/pim/workers/jobs/${job.uuid}/models/${modelId}?leaseToken=${leaseToken}`, headers: auth });
  const done = (job: Claimed) => workerCall(t.app, minion, job.uuid, 'complete', { leaseToken: job.leaseToken });

  beforeAll(async () => {
    t = await createTestApp();
    owner = (await signedInUser(t.app, { name: 'Owner' })).auth;
    admin = (await signedInUser(t.app, { admin: true })).auth;
    minion = await minionKey(t.app, admin);
    setId = await createSet(t.app, owner, 'Charters');
    await upload(t.app, owner, setId, [{ fileName: 'f001r.png', bytes: await testImage('png', 60, 40) }]);
  });
  afterAll(() => t.close());

  it('describes the models at the claim and streams the file while the lease is held', async () => {
    const kraken = await model('kraken', { label: 'CATMuS medieval', language: 'lat', file: { fileName: 'CATMuS medieval (1.5).mlmodel', bytes: mlmodel } });
    await create({ jobType: 'KrakenHocr', krakenModel: kraken });
    const job = await claimed(['KrakenHocr']);
    expect(job.models).toEqual([
      {
        setting: 'krakenModel',
        id: kraken,
        kind: 'kraken',
        label: 'CATMuS medieval',
        language: 'lat',
        fileName: 'CATMuS_medieval__1.5_.mlmodel',
        sizeBytes: mlmodel.length,
        sha256: createHash('sha256').update(mlmodel).digest('hex'),
      },
    ]);
    const res = await download(job, kraken);
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, mlmodel)).toBe(0);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(Number(res.headers['content-length'])).toBe(mlmodel.length);
    // An administrator may make the worker calls too.
    expect((await download(job, kraken, admin)).statusCode).toBe(200);
    await done(job);
    // The job is over: its lease no longer allows the download.
    expect((await download(job, kraken)).statusCode).toBe(409);
  });

  it('answers 409 without the lease, 404 for a model the job does not name, and only to workers', async () => {
    const kraken = await model('kraken');
    const tesseract = await model('tesseract4');
    await create({ jobType: 'KrakenHocr', krakenModel: kraken });
    const job = await claimed(['KrakenHocr']);
    const wrong = await download(job, kraken, minion, randomUUID());
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toMatch(/^This job is no longer yours/);
    expect((await download(job, kraken, minion, 'not-a-token')).statusCode).toBe(400);
    const other = await download(job, tesseract);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(`Job ${job.id} does not name the model ${tesseract}: a worker may download only the models its job's settings name.`);
    expect((await download(job, randomUUID())).statusCode).toBe(404);
    expect((await download({ ...job, uuid: randomUUID() }, kraken)).json().message).toMatch(/^There is no job /);
    expect((await download(job, kraken, owner)).statusCode).toBe(403);
    expect((await download(job, kraken, {})).statusCode).toBe(401);
    await done(job);
  });

  it('says a model was deleted since the job was made: 404 to the download, and at the claim the job fails', async () => {
    const p2pala = await model('p2pala');
    await create({ jobType: 'P2PaLA', p2palamodel: p2pala });
    const job = await claimed(['P2PaLA']);
    expect(job.models).toMatchObject([{ setting: 'p2palamodel', kind: 'p2pala', fileName: 'bozen_lines.zip' }]);
    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/p2palamodel/${p2pala}`, headers: admin })).status).toBe(204);
    const gone = await download(job, p2pala);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(`The P2PaLA model ${p2pala} that job ${job.id} names (p2palamodel) was deleted after the job was made.`);
    await done(job);

    const doomed = await model('kraken');
    const orphan = await create({ jobType: 'KrakenHocr', krakenModel: doomed, priority: 10 });
    const next = await create({ jobType: 'KrakenHocr', krakenModel: await model('kraken'), priority: 90 });
    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/krakenmodel/${doomed}`, headers: admin })).status).toBe(204);
    const run = await claimed(['KrakenHocr']);
    expect(run.uuid).toBe(next.uuid);
    const failed = (await call(t.app, { method: 'GET', url: `/api/pim/jobs/${orphan.id}`, headers: owner })).json as Job;
    expect(failed).toMatchObject({ state: 'failed', error: `The Kraken model ${doomed} that job ${orphan.id} names (krakenModel) was deleted after the job was made.` });
    await done(run);
  });

  it('names no model for a job whose settings name none', async () => {
    await create({ jobType: 'SiameseNetwork', training: true });
    expect((await claimed(['SiameseNetwork'])).models).toEqual([]);
  });

  it('gives the model file a name that is one safe word, its extension kept', () => {
    expect(safeFileName('catmus.mlmodel', 'kraken')).toBe('catmus.mlmodel');
    expect(safeFileName('../../etc/$(id) x.traineddata', 'tesseract4')).toBe('__id__x.traineddata');
    expect(safeFileName('.hidden', 'p2pala')).toBe('hidden.zip');
    expect(safeFileName('', 'kraken')).toBe('model.bin');
    expect(safeFileName(`${'a'.repeat(300)}.safetensors`, 'kraken')).toBe(`${'a'.repeat(88)}.safetensors`);
  });
});
