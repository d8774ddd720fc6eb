import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type Auth = { authorization: string };

describe('image set settings, delete and autocomplete API', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    admin = await signedInUser(t.app, { admin: true });
  });
  afterAll(() => t.close());

  const update = (auth: Auth, payload: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: auth, payload });
  const get = (auth: Auth, id: string) => call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${id}`, headers: auth });
  const suggest = (auth: Auth, query: string) =>
    call(t.app, { method: 'GET', url: `/api/pim/documentimageset/autocomplete?${query}`, headers: auth });

  async function searchIndex(name: string): Promise<string> {
    const res = await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin.auth, payload: { name } });
    return res.json.uuid;
  }

  it('changes each field it is sent and leaves the others', async () => {
    const id = await createSet(t.app, owner.auth, 'Settings');
    const index = await searchIndex(`index-${id}`);
    const full = await update(owner.auth, {
      uuid: id,
      imageset: '  Renamed  ',
      prettyName: 'Pretty',
      description: 'Charters, 12th century',
      elasticSearchIndex: { uuid: index },
      publish: true,
      license: 'CC BY 4.0',
      publicDataSet: true,
      publicDocumentImageSet: true,
    });
    expect(full.status).toBe(200);
    expect(full.json).toMatchObject({
      uuid: id,
      imageset: 'Renamed',
      prettyName: 'Pretty',
      description: 'Charters, 12th century',
      elasticSearchIndex: { uuid: index, name: `index-${id}` },
      publish: true,
      license: 'CC BY 4.0',
      publicDataSet: true,
      publicDocumentImageSet: true,
    });
    expect(Date.parse(full.json.updated)).toBeGreaterThanOrEqual(Date.parse(full.json.created));

    const nameOnly = await update(owner.auth, { uuid: id, imageset: 'Renamed again' });
    expect(nameOnly.json).toMatchObject({ imageset: 'Renamed again', prettyName: 'Pretty', publish: true, license: 'CC BY 4.0' });

    const cleared = await update(owner.auth, {
      uuid: id,
      imageset: 'Renamed again',
      prettyName: '   ',
      description: null,
      elasticSearchIndex: null,
      publish: false,
      license: null,
      publicDataSet: false,
      publicDocumentImageSet: false,
    });
    expect(cleared.json).toMatchObject({
      prettyName: null,
      description: null,
      elasticSearchIndex: null,
      publish: false,
      license: null,
      publicDataSet: false,
      publicDocumentImageSet: false,
    });
    expect((await get(owner.auth, id)).json).toEqual(cleared.json);
  });

  it('refuses an empty name and an unknown search index with clear messages', async () => {
    const id = await createSet(t.app, owner.auth, 'Keeps its name');
    for (const imageset of ['', '   ', undefined]) {
      const res = await update(owner.auth, { uuid: id, imageset });
      expect(res.status).toBe(400);
      expect(res.json.message).toContain('Enter a name for the image set.');
    }
    const unknown = randomUUID();
    const index = await update(owner.auth, { uuid: id, imageset: 'x', elasticSearchIndex: { uuid: unknown } });
    expect(index.status).toBe(400);
    expect(index.json.message).toBe(`There is no search index with id ${unknown}. Choose one from the list.`);
    expect((await get(owner.auth, id)).json.imageset).toBe('Keeps its name');
    const missing = await update(owner.auth, { uuid: randomUUID(), imageset: 'x' });
    expect(missing.status).toBe(404);
  });

  it('tells a reader what is missing: the permission, or the role', async () => {
    const id = await createSet(t.app, owner.auth, 'Public charters');
    await update(owner.auth, { uuid: id, imageset: 'Public charters', publicDocumentImageSet: true });
    const reader = await signedInUser(t.app);

    const change = await update(reader.auth, { uuid: id, imageset: 'Mine now' });
    expect(change.status).toBe(403);
    expect(change.json.message).toBe('You may read this image set but not change it: that needs WRITE permission on it.');
    const del = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${id}`, headers: reader.auth });
    expect(del.json.message).toBe('You may read this image set but not delete it: that needs DELETE permission on it.');
    const index = await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: reader.auth, payload: { name: 'mine' } });
    expect(index.status).toBe(403);
    expect(index.json.message).toBe('This needs the ADMIN role.');
  });

  it('soft-deletes a set: gone from get, lists, pickers and its parent, but the parent stays', async () => {
    const parent = await createSet(t.app, owner.auth, 'Parent of doomed');
    const doomed = await createSet(t.app, owner.auth, 'Doomed set');
    await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${parent}/subsets`, headers: owner.auth, payload: { uuid: doomed } });

    const del = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${doomed}`, headers: owner.auth });
    expect(del.status).toBe(204);
    expect(del.res.body).toBe('');

    expect((await get(owner.auth, doomed)).status).toBe(404);
    const list = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: owner.auth });
    expect(list.json.map((s: { uuid: string }) => s.uuid)).not.toContain(doomed);
    expect((await suggest(owner.auth, 'filter=Doomed%20set')).json.results).toEqual([]);
    const tree = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${parent}/hierarchy`, headers: owner.auth });
    expect(tree.json.subsets).toEqual([]);
    expect((await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${doomed}/hierarchy`, headers: owner.auth })).status).toBe(404);
    const again = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${doomed}`, headers: owner.auth });
    expect(again.status).toBe(404);
    const addBack = await call(t.app, {
      method: 'PUT',
      url: `/api/pim/documentimageset/${parent}/subsets`,
      headers: owner.auth,
      payload: { uuid: doomed },
    });
    expect(addBack.status).toBe(404);
  });

  it('suggests readable sets by part of the name, any case, a page of 20 at a time', async () => {
    const user = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const ids: string[] = [];
    for (let i = 1; i <= 23; i++) ids.push(await createSet(t.app, user.auth, `Ledger ${String(i).padStart(2, '0')}`));
    await createSet(t.app, user.auth, 'Unrelated');
    await createSet(t.app, other.auth, 'Ledger of someone else');

    const first = await suggest(user.auth, 'filter=lEdGeR');
    expect(first.status).toBe(200);
    expect(first.json.pageSize).toBe(20);
    expect(first.json.results).toHaveLength(20);
    expect(first.json.results[0]).toEqual({ uuid: ids[0], name: 'Ledger 01' });
    const second = await suggest(user.auth, 'filter=ledger&skip=20');
    expect(second.json.results.map((r: { name: string }) => r.name)).toEqual(['Ledger 21', 'Ledger 22', 'Ledger 23']);

    const excluded = await suggest(user.auth, `filter=ledger 0&exclude=${ids[0]}`);
    expect(excluded.json.results.map((r: { uuid: string }) => r.uuid)).not.toContain(ids[0]);
    expect(excluded.json.results).toHaveLength(8);

    const all = await suggest(user.auth, '');
    expect(all.json.results).toHaveLength(20);
    const own = await suggest(user.auth, 'filter=Unrelated&onlyOwnData=true');
    expect(own.json.results).toHaveLength(1);
    const literal = await suggest(user.auth, `filter=${encodeURIComponent('%')}`);
    expect(literal.json.results).toEqual([]);

    expect((await suggest(user.auth, 'exclude=nope')).status).toBe(400);
    expect((await suggest(user.auth, 'skip=-1')).status).toBe(400);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimageset/autocomplete' })).status).toBe(401);
  });
});
