import type { Job, JobTypeListItem } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts } from '../../test-support/upload-files.js';
import { claim, minionKey, onePagexml, uploadWorkerFile, workerCall } from '../../test-support/workers.js';

type Auth = Record<string, string>;

describe('the worker calls: claim, heartbeat, images, files, complete, fail', () => {
  let t: TestApp;
  let owner: Auth;
  let admin: Auth;
  let minion: Auth;
  let setId: string;
  let otherSetId: string;
  let images: { uuid: string; name: string }[];
  let otherImage: string;
  let png: Buffer;

  const create = async (payload: object): Promise<Job> => {
    const res = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner, payload });
    if (res.status !== 200) throw new Error(`create: ${res.status} ${res.res.body}`);
    return res.json;
  };
  const job = async (id: string | number): Promise<Job> => (await call(t.app, { method: 'GET', url: `/api/pim/jobs/${id}`, headers: owner })).json;
  const claimed = async (types: string[], worker?: object) => {
    const res = await claim(t.app, minion, types, worker);
    expect(res.status, res.res.body).toBe(200);
    return res.json.job as { uuid: string; id: number; leaseToken: string; images: { uuid: string; label: string }[]; settings: Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await createTestApp({ PIM_XML_MAX_MB: '1' });
    owner = (await signedInUser(t.app, { name: 'Owner' })).auth;
    admin = (await signedInUser(t.app, { admin: true })).auth;
    minion = await minionKey(t.app, admin);
    png = await testImage('png', 60, 40);
    setId = await createSet(t.app, owner, 'Charters');
    images = [];
    for (const name of ['f001r.png', 'f001v.png']) {
      const res = await upload(t.app, owner, setId, [{ fileName: name, bytes: png }]);
      images.push(res.json.documentImages[0]);
    }
    otherSetId = await createSet(t.app, owner, 'Elsewhere');
    otherImage = (await upload(t.app, owner, otherSetId, [{ fileName: 'other.png', bytes: await testImage('png', 30, 20) }])).json.documentImages[0].uuid;
  });
  afterAll(() => t.close());

  it('lets only MINION keys and administrators call them: 401 anonymous, 403 with what it takes', async () => {
    const anonymous = await claim(t.app, {}, ['P2PaLA']);
    expect(anonymous.status).toBe(401);
    const user = await claim(t.app, owner, ['P2PaLA']);
    expect(user.status).toBe(403);
    expect(user.json.message).toBe(
      'Only a remote worker claims and runs jobs: this needs an API key with the MINION role (pim apikeys create --user NAME --roles MINION).',
    );
    const plainKey = (await call(t.app, { method: 'POST', url: '/api/pim/apikey', headers: admin, payload: { userName: 'plain', roles: [] } })).json.apiKey;
    expect((await claim(t.app, { authorization: `ApiKey ${plainKey}` }, ['P2PaLA'])).status).toBe(403);
    expect((await claim(t.app, minion, ['P2PaLA'])).status).toBe(204);
    expect((await claim(t.app, admin, ['P2PaLA'])).status).toBe(204);
    expect((await claim(t.app, minion, [])).status).toBe(400);
    expect((await claim(t.app, minion, ['Nonsense'])).status).toBe(400);
  });

  it('ends "waiting for a worker that runs P2PaLA" once a worker of that type asks for jobs', async () => {
    const waiting = await create({ imageSet: setId, jobType: 'KrakenHocr', krakenModel: await krakenModel() });
    expect(waiting.waitingFor).toBe('Waiting for a worker that runs KrakenHocr.');
    const typesBefore = (await call(t.app, { method: 'GET', url: '/api/pim/jobs/types', headers: owner })).json as JobTypeListItem[];
    expect(typesBefore.find((i) => i.type === 'FrogNer')?.served).toBe(false);
    // A worker that asks for FrogNer jobs serves FrogNer, even when none waits.
    expect((await claim(t.app, minion, ['FrogNer'])).status).toBe(204);
    const typesAfter = (await call(t.app, { method: 'GET', url: '/api/pim/jobs/types', headers: owner })).json as JobTypeListItem[];
    expect(typesAfter.find((i) => i.type === 'FrogNer')?.served).toBe(true);
    expect(typesAfter.find((i) => i.type === 'KrakenHocr')?.served).toBe(false);
    expect((await job(waiting.id)).waitingFor).toBe('Waiting for a worker that runs KrakenHocr.');
    const run = await claimed(['KrakenHocr']);
    expect(run.uuid).toBe(waiting.uuid);
    await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken });
    const another = await create({ imageSet: setId, jobType: 'KrakenHocr', krakenModel: await krakenModel() });
    expect(another.waitingFor).toBeNull();
    const list = (await call(t.app, { method: 'GET', url: '/api/pim/jobs', headers: owner })).json.results as Job[];
    expect(list.find((j) => j.uuid === another.uuid)?.waitingFor).toBeNull();
    await call(t.app, { method: 'POST', url: `/api/pim/jobs/${another.id}/cancel`, headers: owner });
  });

  it('gives a claimed job with its settings, the images to do and a lease, and records the worker', async () => {
    const queued = await create({ imageSet: setId, jobType: 'P2PaLA', exp_name: 'charters', line_color: 200 });
    const res = await claim(t.app, minion, ['P2PaLA', 'FrogNer'], { name: 'gpu-1', versions: { p2pala: '1.2' } });
    expect(res.status).toBe(200);
    expect(res.json.job).toMatchObject({
      id: queued.id,
      uuid: queued.uuid,
      type: 'P2PaLA',
      setId,
      leaseToken: expect.any(String),
      leaseExpiresAt: expect.any(String),
      leaseSeconds: t.config.jobs.leaseMs / 1000,
      settings: { jobType: 'P2PaLA', exp_name: 'charters', line_color: 200, num_segments: 4, imageSet: setId },
      images: [
        { uuid: images[0]!.uuid, label: 'f001r', width: 60, height: 40, pageNumber: 1, fileName: 'f001r.png' },
        { uuid: images[1]!.uuid, label: 'f001v', width: 60, height: 40, pageNumber: 2, fileName: 'f001v.png' },
      ],
    });
    expect(res.json.job.settings).not.toHaveProperty('tesseract4model');
    expect(await job(queued.id)).toMatchObject({ state: 'running', worker: { name: 'gpu-1', host: '127.0.0.1', versions: { p2pala: '1.2' } }, attempts: 1 });
    // The job is this worker's: a second claimer does not get it.
    expect((await claim(t.app, minion, ['P2PaLA'])).status).toBe(204);
    await workerCall(t.app, minion, queued.uuid, 'complete', { leaseToken: res.json.job.leaseToken });
  });

  it('never gives one job to two workers claiming at once', async () => {
    const queued = await Promise.all(Array.from({ length: 6 }, () => create({ imageSet: setId, jobType: 'ScriptCompare' })));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => claim(t.app, minion, ['ScriptCompare'], { name: `worker-${i}` })));
    const given = answers.filter((a) => a.status === 200).map((a) => a.json.job.uuid as string);
    expect(given.sort()).toEqual(queued.map((j) => j.uuid).sort());
    expect(answers.filter((a) => a.status === 204)).toHaveLength(6);
    for (const a of answers.filter((r) => r.status === 200)) await workerCall(t.app, minion, a.json.job.uuid, 'complete', { leaseToken: a.json.job.leaseToken });
  });

  it('renews the lease with progress; 409 once the job is no longer the worker\'s, 404 for no job', async () => {
    const queued = await create({ imageSet: setId, jobType: 'P2PaLA' });
    const run = await claimed(['P2PaLA']);
    expect(run.uuid).toBe(queued.uuid);
    const beat = await workerCall(t.app, minion, run.uuid, 'heartbeat', { leaseToken: run.leaseToken, progress: { done: 1, total: 2, message: 'f001r' } });
    expect(beat.status).toBe(200);
    expect(new Date(beat.json.leaseExpiresAt).getTime()).toBeGreaterThan(Date.now());
    expect((await job(run.id)).progress).toEqual({ done: 1, total: 2, message: 'f001r' });

    const wrong = await workerCall(t.app, minion, run.uuid, 'heartbeat', { leaseToken: crypto.randomUUID() });
    expect(wrong.status).toBe(409);
    expect((await workerCall(t.app, minion, crypto.randomUUID(), 'heartbeat', { leaseToken: run.leaseToken })).status).toBe(404);
    expect((await workerCall(t.app, minion, run.uuid, 'heartbeat', { leaseToken: 'not-a-token' })).status).toBe(400);

    // Its user cancels it from the P2PaLA screen while it runs.
    const record = (await call(t.app, { method: 'GET', url: '/api/pim/p2palajob?onlyOwnData=true', headers: owner })).json.find((r: { wrapper: string }) => r.wrapper === run.uuid);
    expect((await call(t.app, { method: 'POST', url: `/api/pim/p2palajob/${record.uuid}/cancel`, headers: owner })).status).toBe(204);
    const after = await workerCall(t.app, minion, run.uuid, 'heartbeat', { leaseToken: run.leaseToken });
    expect(after.status).toBe(409);
    expect(after.json.message).toMatch(/^This job is no longer yours: it was cancelled or restarted/);
    expect((await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken })).status).toBe(409);
    expect((await job(run.id)).state).toBe('cancelled');
  });

  it('serves the original of an image of the job\'s set while the lease is held, and no other image', async () => {
    await create({ imageSet: setId, jobType: 'P2PaLA' });
    const run = await claimed(['P2PaLA']);
    const url = (image: string, token = run.leaseToken) => `/api/pim/workers/jobs/${run.uuid}/images/${image}?leaseToken=${token}`;
    const res = await t.app.inject({ method: 'GET', url: url(images[0]!.uuid), headers: minion });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
    const other = await call(t.app, { method: 'GET', url: url(otherImage), headers: minion });
    expect(other.status).toBe(404);
    expect(other.json.message).toBe(`The image ${otherImage} is not in the image set of job ${run.id}.`);
    expect((await call(t.app, { method: 'GET', url: url(images[0]!.uuid, crypto.randomUUID()), headers: minion })).status).toBe(409);
    expect((await call(t.app, { method: 'GET', url: url(images[0]!.uuid), headers: owner })).status).toBe(403);
    await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken });
  });

  it('stores an uploaded PAGE file as the image\'s transcription, refusing other sets\' images, bad XML and files over PIM_XML_MAX_MB', async () => {
    await create({ imageSet: setId, jobType: 'P2PaLA' });
    const run = await claimed(['P2PaLA'], { name: 'loghi-gpu', versions: { loghi: '2.1' } });
    const send = (imageId: string, bytes: Buffer | string, token = run.leaseToken) =>
      uploadWorkerFile(t.app, minion, run.uuid, { leaseToken: token, kind: 'transcription', imageId }, { name: 'page.xml', bytes });
    const before = await uploadRowCounts(t.app);

    const malformed = await send(images[0]!.uuid, '<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"><Page>');
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toMatch(/XML/);
    const elsewhere = await send(otherImage, onePagexml('other.png', 'nope'));
    expect(elsewhere.status).toBe(404);
    const huge = await send(images[0]!.uuid, onePagexml('f001r.png', 'x'.repeat(1024 * 1024 + 10)));
    expect(huge.status).toBe(413);
    expect(huge.json.message).toBe('This XML file is larger than the limit of 1 MB for PAGE, ALTO and hOCR files.');
    expect((await send(images[0]!.uuid, onePagexml('f001r.png', 'x'), crypto.randomUUID())).status).toBe(409);
    expect(await uploadRowCounts(t.app)).toEqual(before);

    const stored = await send(images[0]!.uuid, onePagexml('f001r.png', 'In nomine domini amen'));
    expect(stored.status, stored.res.body).toBe(200);
    expect(stored.json).toMatchObject({ kind: 'transcription', image: images[0]!.uuid, outcome: 'stored', lines: 1 });
    const transcriptions = (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${images[0]!.uuid}/transcriptions`, headers: owner })).json;
    const made = transcriptions.find((tr: { uuid: string }) => tr.uuid === stored.json.transcription);
    expect(made).toMatchObject({ format: 'page', transcriber: 'Test HTR 1.0', cleanText: 'In nomine domini amen' });
    // Without allData the first one stands: a second upload for the image (a worker retrying) stores nothing twice.
    const again = await send(images[0]!.uuid, onePagexml('f001r.png', 'In nomine domini'));
    expect(again.json).toMatchObject({ outcome: 'kept', transcription: null });
    await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken });

    // The next P2PaLA job on the set has only the image without one left to do.
    await create({ imageSet: setId, jobType: 'P2PaLA' });
    const next = await claimed(['P2PaLA']);
    expect(next.images.map((i) => i.uuid)).toEqual([images[1]!.uuid]);
    await workerCall(t.app, minion, next.uuid, 'complete', { leaseToken: next.leaseToken });
  });

  it('completes a job with the worker\'s provenance and result, and fails one with its message', async () => {
    const done = await create({ imageSet: setId, jobType: 'FrogNer' });
    const run = await claimed(['FrogNer'], { name: 'frog-1', versions: { frog: '0.26' } });
    expect((await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken, result: { entities: 12 } })).status).toBe(204);
    expect(await job(done.id)).toMatchObject({ state: 'done', done: true, worker: { name: 'frog-1', host: '127.0.0.1', versions: { frog: '0.26' } }, endDate: expect.any(String) });
    const row = await t.app.database.db.selectFrom('job').select(['result', 'worker']).where('uuid', '=', done.uuid).executeTakeFirstOrThrow();
    expect(row.result).toEqual({ entities: 12 });
    expect(row.worker?.timings).toMatchObject({ queued: expect.any(String), started: expect.any(String), finished: expect.any(String) });
    expect((await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken })).status).toBe(409);

    const failing = await create({ imageSet: setId, jobType: 'FrogNer' });
    const run2 = await claimed(['FrogNer']);
    expect((await workerCall(t.app, minion, run2.uuid, 'fail', { leaseToken: run2.leaseToken, message: 'frog: no Dutch model installed' })).status).toBe(204);
    expect(await job(failing.id)).toMatchObject({ state: 'failed', error: 'frog: no Dutch model installed' });
    expect((await workerCall(t.app, minion, run2.uuid, 'fail', { leaseToken: run2.leaseToken, message: '' })).status).toBe(400);
  });

  it('keeps a worker\'s output file as the job\'s download, and gives a released job to the next worker', async () => {
    const queued = await create({ imageSet: setId, jobType: 'PipelineKB' });
    const run = await claimed(['PipelineKB']);
    const out = await uploadWorkerFile(t.app, minion, run.uuid, { leaseToken: run.leaseToken, kind: 'output', mediaType: 'text/csv' }, { name: 'entities.csv', bytes: 'a,b\n' });
    expect(out.status, out.res.body).toBe(200);
    expect(out.json).toEqual({ kind: 'output', fileName: 'entities.csv', sizeBytes: 4 });
    expect((await workerCall(t.app, minion, run.uuid, 'release', { leaseToken: run.leaseToken })).status).toBe(204);
    expect(await job(queued.id)).toMatchObject({ state: 'notStarted', attempts: 0 });
    const rerun = await claimed(['PipelineKB']);
    expect(rerun.uuid).toBe(queued.uuid);
    await uploadWorkerFile(t.app, minion, rerun.uuid, { leaseToken: rerun.leaseToken, kind: 'output', mediaType: 'text/csv' }, { name: 'entities.csv', bytes: 'a,b\n1,2\n' });
    await workerCall(t.app, minion, rerun.uuid, 'complete', { leaseToken: rerun.leaseToken });
    const download = await t.app.inject({ method: 'GET', url: `/api/pim/jobs/download/${queued.uuid}`, headers: owner });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('a,b\n1,2\n');
    expect(download.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('fails, at the claim, a job whose maker was disabled, and gives the worker the next one', async () => {
    const maker = await signedInUser(t.app, { name: 'Leaver' });
    const leaverSet = await createSet(t.app, maker.auth, 'Leaver set');
    const orphan = (await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: maker.auth, payload: { imageSet: leaverSet, jobType: 'SiameseNetwork', priority: 0 } })).json as Job;
    const next = await create({ imageSet: setId, jobType: 'SiameseNetwork', priority: 1 });
    await t.app.database.db.updateTable('pim_user').set({ disabled: true }).where('id', '=', maker.userId).execute();
    const run = await claimed(['SiameseNetwork']);
    expect(run.uuid).toBe(next.uuid);
    const failed = (await call(t.app, { method: 'GET', url: `/api/pim/jobs/${orphan.id}`, headers: admin })).json as Job;
    expect(failed).toMatchObject({ state: 'failed', error: 'The user or API key that made this job is disabled or deleted, and a job acts with its maker’s rights.' });
    await workerCall(t.app, minion, run.uuid, 'complete', { leaseToken: run.leaseToken });
  });

  async function krakenModel(): Promise<string> {
    const res = await createModel(t.app, admin, 'kraken');
    if (res.status !== 201) throw new Error(`kraken model: ${res.status} ${res.res.body}`);
    return res.json.uuid;
  }
});
