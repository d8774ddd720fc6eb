import { MODEL_KIND_INFO, type Model, type ModelKind } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

describe('models: who sees which', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let user: Record<string, string>;
  let minion: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { admin: true, name: 'Uploader' })).auth;
    otherAdmin = (await signedInUser(t.app, { admin: true })).auth;
    user = (await signedInUser(t.app)).auth;
    const key = await call(t.app, { method: 'POST', url: '/api/pim/apikey', headers: admin, payload: { userName: 'reader', roles: ['MINION'] } });
    minion = { authorization: `ApiKey ${key.json.apiKey}` };
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) => call(t.app, { method: 'GET', url, headers });
  const listed = async (kind: ModelKind, headers: Record<string, string>, query = ''): Promise<string[]> => {
    const info = MODEL_KIND_INFO[kind];
    const res = await get(`/api/${info.listPath}?${kind === 'laypa' ? 'page=0&pageSize=50&' : ''}${query}`, headers);
    expect(res.status).toBe(200);
    return ((kind === 'laypa' ? res.json.results : res.json) as Model[]).map((m) => m.uuid);
  };
  const picked = async (kind: ModelKind, headers: Record<string, string>, query = ''): Promise<string[]> =>
    ((await get(`/api/${MODEL_KIND_INFO[kind].basePath}/autocomplete?filter=secret${query}`, headers)).json.results as { uuid: string }[]).map((m) => m.uuid);

  /** Whether the caller finds the model in the list and the picker, and may read and download it (else 404). */
  async function sees(kind: ModelKind, uuid: string, headers: Record<string, string>): Promise<boolean> {
    const base = `/api/${MODEL_KIND_INFO[kind].basePath}/${uuid}`;
    const answers = [
      (await listed(kind, headers)).includes(uuid),
      (await picked(kind, headers)).includes(uuid),
      (await get(base, headers)).status === 200,
      (await get(`${base}/binary`, headers)).status === 200,
    ];
    expect(new Set(answers).size, `${kind}: list, picker, detail and download agree`).toBe(1);
    if (!answers[0]) {
      expect((await get(base, headers)).status).toBe(404);
      expect((await get(`${base}/binary`, headers)).status).toBe(404);
    }
    return answers[0]!;
  }

  it.each(['laypa', 'loghihtr'] as const)('%s: a new model is private to its owner and admins until made public, and private again after', async (kind) => {
    const created = await createModel(t.app, admin, kind, { label: `A secret ${kind}` });
    const model = created.json as Model;
    expect(model.publicModel).toBe(false);
    expect(await sees(kind, model.uuid, admin)).toBe(true);
    expect(await sees(kind, model.uuid, otherAdmin)).toBe(true);
    expect(await sees(kind, model.uuid, user)).toBe(false);
    expect(await sees(kind, model.uuid, minion)).toBe(false);

    const base = `/api/${MODEL_KIND_INFO[kind].basePath}/${model.uuid}`;
    const published = await call(t.app, { method: 'PUT', url: `${base}/makepublic`, headers: otherAdmin });
    expect(published.status).toBe(200);
    expect(published.json).toMatchObject({ uuid: model.uuid, publicModel: true, owner: { name: 'Uploader' } });
    expect(await sees(kind, model.uuid, user)).toBe(true);
    expect(await sees(kind, model.uuid, minion)).toBe(true);

    const hidden = await call(t.app, { method: 'PUT', url: `${base}/makeprivate`, headers: admin, payload: '' });
    expect(hidden.status).toBe(200);
    expect(hidden.json.publicModel).toBe(false);
    expect(await sees(kind, model.uuid, user)).toBe(false);
    expect(await sees(kind, model.uuid, admin)).toBe(true);
  });

  it.each(['kraken', 'tesseract4', 'loghilinedetection', 'p2pala', 'pylaia', 'siamesenetwork'] as const)(
    '%s: every model is shared with everyone signed in',
    async (kind) => {
      const model = (await createModel(t.app, admin, kind, { label: `A secret ${kind}` })).json as Model;
      expect(model.publicModel).toBe(true);
      expect(await sees(kind, model.uuid, user)).toBe(true);
      expect(await sees(kind, model.uuid, minion)).toBe(true);
    },
  );

  it("narrows lists and pickers to the caller's own uploads with onlyOwnData", async () => {
    const mine = (await createModel(t.app, admin, 'pylaia', { label: 'A secret of mine' })).json as Model;
    const theirs = (await createModel(t.app, otherAdmin, 'pylaia', { label: 'A secret of theirs' })).json as Model;
    const own = await listed('pylaia', admin, 'onlyOwnData=true');
    expect(own).toContain(mine.uuid);
    expect(own).not.toContain(theirs.uuid);
    expect(await picked('pylaia', admin, '&onlyOwnData=true')).toEqual(expect.not.arrayContaining([theirs.uuid]));
    expect(await listed('pylaia', user, 'onlyOwnData=true')).toEqual([]);
    expect(await listed('pylaia', user)).toEqual(expect.arrayContaining([mine.uuid, theirs.uuid]));
  });

  it('counts only what the caller may see in the Laypa total', async () => {
    const before = (await get('/api/pim/laypa/model?page=0&pageSize=10', user)).json.total as number;
    await createModel(t.app, admin, 'laypa', { label: 'Another secret' });
    expect((await get('/api/pim/laypa/model?page=0&pageSize=10', user)).json.total).toBe(before);
    const adminTotal = (await get('/api/pim/laypa/model?page=0&pageSize=10', admin)).json.total as number;
    expect(adminTotal).toBeGreaterThan(before);
  });
});
