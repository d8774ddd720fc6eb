import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

describe('image sets API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses anonymous callers with 401', async () => {
    const list = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset' });
    expect(list.status).toBe(401);
    expect(list.json).toMatchObject({ error: 'unauthorized', message: 'You need to log in to do this.' });
    const create = await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/create', payload: { imageset: 'x' } });
    expect(create.status).toBe(401);
  });

  it('creates a set owned by the caller and lists it', async () => {
    const alice = await signedInUser(t.app, { name: 'Alice' });
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/create',
      headers: alice.auth,
      payload: { imageset: '  Charters of Évora  ' },
    });
    expect(created.status).toBe(201);
    expect(created.json.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const list = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: alice.auth });
    expect(list.status).toBe(200);
    const set = list.json.find((s: { uuid: string }) => s.uuid === created.json.uuid);
    expect(set).toMatchObject({
      imageset: 'Charters of Évora',
      owner: { uuid: alice.userId, name: 'Alice' },
      uri: `http://pim.test/pim/imageset?uuid=${created.json.uuid}`,
      remoteUri: `http://pim.test/api/pim/imageset/${created.json.uuid}/manifest`,
      publicDocumentImageSet: false,
      publish: false,
      deleted: null,
      elasticSearchIndex: null,
    });

    const one = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${created.json.uuid}`, headers: alice.auth });
    expect(one.status).toBe(200);
    expect(one.json.imageset).toBe('Charters of Évora');
  });

  it('refuses an empty or missing name with a clear message, and stores nothing', async () => {
    const bob = await signedInUser(t.app);
    for (const payload of [{ imageset: '   ' }, {}, { imageset: 42 }]) {
      const res = await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/create', headers: bob.auth, payload });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('validation_failed');
      expect(res.json.message).toContain('Enter a name for the image set.');
    }
    const tooLong = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/create',
      headers: bob.auth,
      payload: { imageset: 'x'.repeat(256) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toContain('at most 255 characters');
    const list = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset?onlyOwnData=true', headers: bob.auth });
    expect(list.json).toEqual([]);
  });

  it('shows others only their own sets, admins all, and onlyOwnData narrows to own', async () => {
    const carol = await signedInUser(t.app, { name: 'Carol' });
    const dave = await signedInUser(t.app, { name: 'Dave' });
    const admin = await signedInUser(t.app, { admin: true });
    const mk = async (who: typeof carol, name: string) =>
      (await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/create', headers: who.auth, payload: { imageset: name } }))
        .json.uuid as string;
    const carols = await mk(carol, 'Carol private');
    const daves = await mk(dave, 'Dave private');

    const names = async (who: typeof carol, q = '') =>
      (await call(t.app, { method: 'GET', url: `/api/pim/documentimageset${q}`, headers: who.auth })).json.map(
        (s: { uuid: string }) => s.uuid,
      ) as string[];
    expect(await names(carol)).toContain(carols);
    expect(await names(carol)).not.toContain(daves);
    expect(await names(admin)).toEqual(expect.arrayContaining([carols, daves]));
    expect(await names(admin, '?onlyOwnData=true')).toEqual([]);
    expect(await names(carol, '?onlyOwnData=true')).toEqual([carols]);

    const peek = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${daves}`, headers: carol.auth });
    expect(peek.status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${daves}`, headers: admin.auth })).status).toBe(200);
  });

  it('answers unknown or malformed ids with 404 and 400', async () => {
    const erin = await signedInUser(t.app);
    const unknown = await call(t.app, {
      method: 'GET',
      url: '/api/pim/documentimageset/6f1c1a34-5d9e-4a8e-9c55-0b6f5a0c2e11',
      headers: erin.auth,
    });
    expect(unknown.status).toBe(404);
    const malformed = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset/not-a-uuid', headers: erin.auth });
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toContain('The image set id must be a UUID.');
    const badFlag = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset?onlyOwnData=maybe', headers: erin.auth });
    expect(badFlag.status).toBe(400);
  });
});
