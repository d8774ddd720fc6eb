import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type Auth = { authorization: string };

describe('search indices API', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { admin: true });
    user = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const create = (auth: Auth | Record<string, never>, name: unknown) =>
    call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: auth, payload: { name } });
  const rename = (auth: Auth, id: string, name: unknown) =>
    call(t.app, { method: 'PUT', url: `/api/pim/elasticsearchindex/${id}`, headers: auth, payload: { name } });
  const get = (auth: Auth | Record<string, never>, url: string) => call(t.app, { method: 'GET', url: `/api/pim/elasticsearchindex${url}`, headers: auth });

  it('lets an admin create, read and rename an index, and everyone signed in list them', async () => {
    const created = await create(admin.auth, '  letters-1850  ');
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ uuid: expect.any(String), name: 'letters-1850' });
    const id = created.json.uuid;

    expect((await get(user.auth, `/${id}`)).json).toEqual({ uuid: id, name: 'letters-1850' });
    expect((await get(user.auth, '')).json).toContainEqual({ uuid: id, name: 'letters-1850' });

    const renamed = await rename(admin.auth, id, 'letters-1851');
    expect(renamed.json).toEqual({ uuid: id, name: 'letters-1851' });
    expect((await get(admin.auth, `/${id}`)).json.name).toBe('letters-1851');
  });

  it('lists indices by name', async () => {
    for (const name of ['order-c', 'order-a', 'order-b']) await create(admin.auth, name);
    const names = ((await get(user.auth, '')).json as { name: string }[]).map((i) => i.name).filter((n) => n.startsWith('order-'));
    expect(names).toEqual(['order-a', 'order-b', 'order-c']);
  });

  it.each([
    ['', 'Give the search index a name.'],
    ['Letters', 'A search index name must be in lower case.'],
    ['two words', 'A search index name cannot contain spaces'],
    ['a/b', 'A search index name cannot contain spaces'],
    ['a#b', 'A search index name cannot contain spaces'],
    ['a:b', 'A search index name cannot contain spaces'],
    ['_hidden', 'A search index name cannot start with -, _ or +.'],
    ['..', 'A search index name cannot be . or ..'],
    ['x'.repeat(256), 'A search index name can be at most 255 bytes long.'],
    ['é'.repeat(128), 'A search index name can be at most 255 bytes long.'],
  ])('refuses the name %j with a clear message', async (name, message) => {
    const res = await create(admin.auth, name);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain(message);
  });

  it('refuses a name that is taken, on create and on rename (409)', async () => {
    const first = (await create(admin.auth, 'taken-name')).json.uuid;
    const second = (await create(admin.auth, 'other-name')).json.uuid;
    const again = await create(admin.auth, 'taken-name');
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('A search index named "taken-name" already exists: choose another name.');
    expect((await rename(admin.auth, second, 'taken-name')).status).toBe(409);
    // Renaming an index to its own name is no conflict.
    expect((await rename(admin.auth, first, 'taken-name')).status).toBe(200);
  });

  it('lets only admins write, and only signed-in callers read', async () => {
    const id = (await create(admin.auth, 'guarded')).json.uuid;
    expect((await create(user.auth, 'by-user')).status).toBe(403);
    expect((await rename(user.auth, id, 'by-user')).status).toBe(403);
    expect((await create({}, 'anonymous')).status).toBe(401);
    expect((await get({}, '')).status).toBe(401);
    expect((await get({}, `/${id}`)).status).toBe(401);
  });

  it('answers 404 for an unknown index and 400 for a malformed id', async () => {
    const unknown = randomUUID();
    const missing = await get(user.auth, `/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no search index with id ${unknown}.`);
    expect((await rename(admin.auth, unknown, 'nothing')).status).toBe(404);
    expect((await get(user.auth, `/${unknown}/documentimagesets`)).status).toBe(404);
    expect((await get(user.auth, '/not-a-uuid')).status).toBe(400);
  });

  it('offers indices to the picker a page at a time, filtered by name', async () => {
    for (const name of ['pick-alpha', 'pick-beta', 'pick-gamma']) await create(admin.auth, name);
    const page = await get(user.auth, '/autocomplete?filter=PICK-&skip=1');
    expect(page.json.pageSize).toBe(20);
    expect(page.json.results.map((i: { name: string }) => i.name)).toEqual(['pick-beta', 'pick-gamma']);
  });

  it('lists the image sets that use an index, of those the caller may see', async () => {
    const index = (await create(admin.auth, 'sets-of-index')).json.uuid;
    const mine = await createSet(t.app, user.auth, 'Mine indexed');
    const other = await signedInUser(t.app);
    const theirs = await createSet(t.app, other.auth, 'Theirs indexed');
    const unindexed = await createSet(t.app, user.auth, 'Not indexed');
    for (const [auth, uuid, imageset] of [
      [user.auth, mine, 'Mine indexed'],
      [other.auth, theirs, 'Theirs indexed'],
    ] as const) {
      const saved = await call(t.app, {
        method: 'POST',
        url: '/api/pim/documentimageset/update',
        headers: auth,
        payload: { uuid, imageset, elasticSearchIndex: { uuid: index } },
      });
      expect(saved.json.elasticSearchIndex).toEqual({ uuid: index, name: 'sets-of-index' });
    }
    expect((await get(user.auth, `/${index}/documentimagesets`)).json).toEqual([{ uuid: mine, name: 'Mine indexed' }]);
    const all = (await get(admin.auth, `/${index}/documentimagesets`)).json as { uuid: string }[];
    expect(all.map((s) => s.uuid).sort()).toEqual([mine, theirs].sort());
    expect(all.map((s) => s.uuid)).not.toContain(unindexed);

    // A deleted set no longer uses the index.
    await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${mine}`, headers: user.auth });
    expect((await get(user.auth, `/${index}/documentimagesets`)).json).toEqual([]);
  });
});
