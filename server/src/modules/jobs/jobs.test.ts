import { randomUUID } from 'node:crypto';
import { JOB_DEFAULTS, type Job } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldSet, field } from '../../test-support/metadata.js';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet } from '../../test-support/upload-files.js';

type Auth = { authorization?: string };

describe('the jobs calls: creating, listing and reading jobs', () => {
  let t: TestApp;
  let owner: Auth;
  let stranger: Auth;
  let reader: Auth;
  let writer: Auth;
  let admin: Auth;
  let setId: string;

  const create = (auth: Auth, payload: object) => call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: auth, payload });
  const get = (auth: Auth, id: string | number) => call(t.app, { method: 'GET', url: `/api/pim/jobs/${id}`, headers: auth });
  const list = (auth: Auth, query = '') => call(t.app, { method: 'GET', url: `/api/pim/jobs${query}`, headers: auth });

  beforeAll(async () => {
    t = await createTestApp();
    const people = await Promise.all([signedInUser(t.app, { name: 'Owner' }), signedInUser(t.app), signedInUser(t.app), signedInUser(t.app), signedInUser(t.app, { admin: true })]);
    [owner, stranger, reader, writer, admin] = people.map((p) => p.auth) as [Auth, Auth, Auth, Auth, Auth];
    setId = await createSet(t.app, owner, 'Charters');
    for (const [person, permission] of [
      [people[2]!, 'READ'],
      [people[3]!, 'WRITE'],
    ] as const) {
      const group = (await call(t.app, { method: 'POST', url: '/api/pim/pimgroups/create', headers: admin, payload: { name: `${permission} group` } })).json.uuid;
      await call(t.app, { method: 'PUT', url: `/api/pim/pimgroups/${group}/hierarchy/addmembership`, headers: admin, payload: { userId: person.userId, role: 'MEMBER' } });
      await call(t.app, { method: 'POST', url: `/api/pim/acl/subject/${setId}`, headers: owner, payload: { group, role: 'MEMBER', permission } });
    }
  });
  afterAll(() => t.close());

  it('queues a job from {imageSet, jobType} with the defaults, and answers at once with it', async () => {
    const res = await create(owner, { imageSet: setId, jobType: 'GenerateManifests' });
    expect(res.status).toBe(200);
    const job = res.json as Job;
    expect(job).toMatchObject({
      id: expect.any(Number),
      uuid: expect.any(String),
      jobType: 'GenerateManifests',
      state: 'notStarted',
      startDate: null,
      endDate: null,
      done: false,
      inProgress: false,
      documentImageset: { uuid: setId, name: 'Charters' },
      owner: { name: 'Owner' },
      priority: JOB_DEFAULTS.priority,
      allData: false,
      uri: null,
      error: null,
      downloadUri: null,
      wrapper: null,
      progress: null,
      worker: null,
      attempts: 0,
      // No worker of this test app runs anything: the job says what it waits for.
      waitingFor: 'Waiting for a worker that runs GenerateManifests.',
      settings: { jobType: 'GenerateManifests', priority: 50, imageSet: setId },
    });
    expect(job.jobOrder).toBeGreaterThanOrEqual(1);
    expect((await get(owner, job.uuid)).json).toEqual(job);
    expect((await get(owner, job.id)).json).toEqual(job);
  });

  it('keeps the fields the type uses from a full payload, with their defaults', async () => {
    const res = await create(owner, { imageSet: setId, jobType: 'P2PaLA', priority: 7, line_color: 200, exp_name: 'charters', tesseract4model: randomUUID() });
    expect(res.status).toBe(200);
    expect(res.json.settings).toMatchObject({ jobType: 'P2PaLA', priority: 7, line_color: 200, exp_name: 'charters', num_segments: JOB_DEFAULTS.num_segments, do_prod: true });
    // A Tesseract model is no field of a P2PaLA job: not kept, and not checked.
    expect(res.json.settings).not.toHaveProperty('tesseract4model');
    expect(res.json.priority).toBe(7);
  });

  it.each([
    [{ jobType: 'GenerateManifests', priority: 101 }, 'Priority must be at most 100.'],
    [{ jobType: 'GenerateManifests', priority: 2.5 }, 'Priority must be a whole number.'],
    [{ jobType: 'P2PaLA', line_color: 256 }, 'line_color must be at most 255.'],
    [{ jobType: 'P2PaLA', num_segments: 0 }, 'num_segments must be at least 1.'],
    [{ jobType: 'Frobnicate' }, 'The job type must be one of: SendToElasticSearch'],
    [{ jobType: 'HarvestIIIF', uri: 'ftp://example.org/manifest' }, 'The address must be an http(s) URL.'],
  ])('refuses %j with the rule it breaks', async (payload, message) => {
    const res = await create(owner, { imageSet: setId, ...payload });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain(message);
  });

  it('names the fields a type needs that the request left out', async () => {
    const one = await create(owner, { imageSet: setId, jobType: 'HarvestIIIF' });
    expect(one.status).toBe(400);
    expect(one.json).toMatchObject({ message: 'A HarvestIIIF job needs uri: it is missing.', details: { missing: ['uri'] } });
    const two = await create(owner, { jobType: 'KrakenHocr' });
    expect(two.json).toMatchObject({ message: 'A KrakenHocr job needs imageSet and krakenModel: they are missing.', details: { missing: ['imageSet', 'krakenModel'] } });
    expect((await create(owner, { imageSet: setId, jobType: 'CreateSetForSiameseNetwork', pimFieldUuids: [] })).json.details).toEqual({ missing: ['pimFieldUuids'] });
  });

  it('needs WRITE on the set: a stranger is told there is no such set, a reader what is missing', async () => {
    const hidden = await create(stranger, { imageSet: setId, jobType: 'GenerateManifests' });
    expect(hidden.status).toBe(404);
    expect(hidden.json.message).toBe(`There is no image set with id ${setId}.`);
    const readOnly = await create(reader, { imageSet: setId, jobType: 'GenerateManifests' });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.message).toBe('You may read this image set but not change it: that needs WRITE permission on it.');
    expect((await create(writer, { imageSet: setId, jobType: 'GenerateManifests' })).status).toBe(200);
    expect((await create(owner, { imageSet: randomUUID(), jobType: 'GenerateManifests' })).status).toBe(404);
    expect((await create({}, { imageSet: setId, jobType: 'GenerateManifests' })).status).toBe(401);
  });

  it('needs ADMIN for a job on no set', async () => {
    const index = (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'charters-index' } })).json.uuid;
    const refused = await create(owner, { jobType: 'ElasticSearchRemoveIndex', elasticSearchIndex: index });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('This needs the ADMIN role.');
    const made = await create(admin, { jobType: 'ElasticSearchRemoveIndex', elasticSearchIndex: index });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ documentImageset: null, elasticSearchIndex: 'charters-index' });
  });

  it('checks that the models, index and fields a job names exist and may be seen by its maker', async () => {
    const unknown = randomUUID();
    const model = await create(owner, { imageSet: setId, jobType: 'Tesseract4Hocr', tesseract4model: unknown });
    expect(model.status).toBe(400);
    expect(model.json.message).toBe(`There is no Tesseract 4 model with id ${unknown}.`);
    const index = await create(owner, { imageSet: setId, jobType: 'SendToElasticSearch', elasticSearchIndex: unknown });
    expect(index.json.message).toBe(`There is no search index with id ${unknown}.`);

    const tesseract = (await createModel(t.app, admin, 'tesseract4', { label: 'Dutch print' })).json.uuid as string;
    const made = await create(owner, { imageSet: setId, jobType: 'Tesseract4Hocr', tesseract4model: tesseract });
    expect(made.status).toBe(200);
    // The model is kept by its id and shown by its name.
    expect(made.json).toMatchObject({ settings: { tesseract4model: tesseract }, settingNames: { tesseract4model: 'Dutch print' } });

    const privateFields = await createFieldSet(t.app, admin, { name: 'Admin only', fields: [field('Script', 'text')] });
    const script = privateFields.fields.find((f) => f.name === 'Script')!.uuid;
    const fields = await create(owner, { imageSet: setId, jobType: 'CreateSetForSiameseNetwork', pimFieldUuids: [script] });
    expect(fields.status).toBe(400);
    expect(fields.json.message).toBe(`There is no field with id ${script}: send the fields of one field set.`);
    expect((await create(admin, { imageSet: setId, jobType: 'CreateSetForSiameseNetwork', pimFieldUuids: [script] })).status).toBe(200);
  });

  it('lists newest first, a page at a time: everyone their own jobs, admins all, and only their own when asked', async () => {
    const other = await createSet(t.app, stranger, 'Other');
    const mine = (await create(stranger, { imageSet: other, jobType: 'SplitPDF' })).json as Job;
    const again = (await create(stranger, { imageSet: other, jobType: 'Epubify' })).json as Job;

    const own = await list(stranger);
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ total: 2, pageSize: 20 });
    expect(own.json.results.map((j: Job) => j.uuid)).toEqual([again.uuid, mine.uuid]);
    expect((await list(stranger, '?page=1&pageSize=10')).json.results).toEqual([]);

    const all = await list(admin, '?pageSize=50');
    expect(all.json.total).toBeGreaterThan(2);
    const ids = all.json.results.map((j: Job) => j.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(ids).toContain(mine.id);
    const adminsOwn = await list(admin, '?onlyOwnData=true&pageSize=50');
    expect(adminsOwn.json.results.every((j: Job) => j.owner?.name !== 'Owner')).toBe(true);
    expect(adminsOwn.json.total).toBeLessThan(all.json.total);

    expect((await list(stranger, '?pageSize=7')).status).toBe(400);
    expect((await list({})).status).toBe(401);
  });

  it('shows a job to its maker and admins only', async () => {
    const job = (await create(owner, { imageSet: setId, jobType: 'SetBrokenNull' })).json as Job;
    expect((await get(admin, job.id)).status).toBe(200);
    for (const other of [stranger, writer]) {
      const res = await get(other, job.uuid);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(`There is no job with id ${job.uuid}.`);
    }
    expect((await get(owner, 'not-a-job')).status).toBe(400);
    expect((await get(owner, 987654)).status).toBe(404);
  });

  it('gives each job not started its place in the queue, by priority then age', async () => {
    const set = await createSet(t.app, owner, 'Queue order');
    const ahead = (await list(admin, '?pageSize=50')).json.results.filter((j: Job) => j.state === 'notStarted' && j.priority <= 1).length;
    const second = (await create(owner, { imageSet: set, jobType: 'SplitPDF', priority: 1 })).json as Job;
    const first = (await create(owner, { imageSet: set, jobType: 'SplitPDF', priority: 0 })).json as Job;
    const third = (await create(owner, { imageSet: set, jobType: 'SplitPDF', priority: 1 })).json as Job;
    const page = (await list(owner, '?pageSize=50')).json.results as Job[];
    const order = (j: Job) => page.find((p) => p.uuid === j.uuid)!.jobOrder!;
    expect(order(first)).toBeLessThan(order(second));
    expect(order(second)).toBeLessThan(order(third));
    expect(order(third) - order(first)).toBe(2);
    expect(order(first)).toBeLessThanOrEqual(ahead + 1);
  });
});
