import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type Auth = { authorization: string } | Record<string, never>;

describe('configurations API', () => {
  let t: TestApp;
  let admin: Auth;
  let user: Auth;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { admin: true })).auth;
    user = (await signedInUser(t.app)).auth;
  });
  afterAll(() => t.close());

  const create = (auth: Auth, payload: object) => call(t.app, { method: 'POST', url: '/api/pim/configuration/create', headers: auth, payload });
  const update = (auth: Auth, id: string, payload: object) => call(t.app, { method: 'PUT', url: `/api/pim/configuration/${id}`, headers: auth, payload });
  const get = (auth: Auth, id: string) => call(t.app, { method: 'GET', url: `/api/pim/configuration/${id}`, headers: auth });
  const list = (auth: Auth) => call(t.app, { method: 'GET', url: '/api/pim/configuration/index', headers: auth });
  const remove = (auth: Auth, id: string) => call(t.app, { method: 'DELETE', url: `/api/pim/configuration/${id}`, headers: auth });

  it('creates, reads by uuid and by id, lists by key, updates and deletes a configuration', async () => {
    const created = await create(admin, { key: '  mail.host  ', value: ' smtp.example.org ' });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ id: expect.any(Number), uuid: expect.any(String), key: 'mail.host', value: ' smtp.example.org ' });
    const { id, uuid } = created.json as { id: number; uuid: string };

    expect((await get(admin, uuid)).json).toEqual(created.json);
    expect((await get(admin, String(id))).json).toEqual(created.json);
    expect((await get(admin, uuid.toUpperCase())).json.uuid).toBe(uuid);

    await create(admin, { key: 'a.first', value: '1' });
    const keys = ((await list(admin)).json as { key: string }[]).map((c) => c.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('mail.host');

    const updated = await update(admin, uuid, { key: 'mail.server', value: '' });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ id, uuid, key: 'mail.server', value: '' });
    expect((await get(admin, uuid)).json.key).toBe('mail.server');

    expect((await remove(admin, uuid)).status).toBe(204);
    expect((await get(admin, uuid)).status).toBe(404);
    expect((await remove(admin, uuid)).status).toBe(404);
  });

  it('keeps a long value whole and an omitted value empty', async () => {
    const long = 'x'.repeat(65_536);
    const res = await create(admin, { key: 'long.value', value: long });
    expect(res.status).toBe(200);
    expect((await get(admin, res.json.uuid)).json.value).toBe(long);
    expect((await create(admin, { key: 'empty.value' })).json.value).toBe('');
  });

  it('refuses a key that is taken, on create and on update (409), and allows keeping its own key', async () => {
    const first = (await create(admin, { key: 'dup.key', value: 'a' })).json.uuid as string;
    const second = (await create(admin, { key: 'other.key', value: 'b' })).json.uuid as string;
    const again = await create(admin, { key: ' dup.key ', value: 'c' });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('A configuration with the key "dup.key" already exists: edit that one or choose another key.');
    const renamed = await update(admin, second, { key: 'dup.key', value: 'b' });
    expect(renamed.status).toBe(409);
    expect(renamed.json.message).toContain('"dup.key" already exists');
    expect((await get(admin, second)).json.key).toBe('other.key');
    expect((await update(admin, first, { key: 'dup.key', value: 'changed' })).json.value).toBe('changed');
  });

  it.each([
    [{ value: 'v' }, 'Enter a key.'],
    [{ key: '   ', value: 'v' }, 'Enter a key.'],
    [{ key: 'k'.repeat(256), value: 'v' }, 'A key can be at most 255 characters.'],
    [{ key: 'k', value: 'v'.repeat(65_537) }, 'A value can be at most 65536 characters.'],
    [{ key: 'k', value: 42 }, 'The value must be text.'],
    [{ key: ['k'], value: 'v' }, 'Enter a key.'],
  ])('refuses %j with a clear message and stores nothing', async (payload, message) => {
    const before = ((await list(admin)).json as unknown[]).length;
    const res = await create(admin, payload);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain(message);
    expect(((await list(admin)).json as unknown[]).length).toBe(before);
  });

  it('answers 404 for an unknown configuration and 400 for a malformed id', async () => {
    const unknown = randomUUID();
    const missing = await get(admin, unknown);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no configuration with id ${unknown}.`);
    expect((await get(admin, '987654')).status).toBe(404);
    expect((await update(admin, unknown, { key: 'nothing', value: '' })).status).toBe(404);
    expect((await remove(admin, unknown)).status).toBe(404);
    const bad = await get(admin, 'not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('The configuration id must be a UUID or a number.');
    expect((await update(admin, '12', { key: 'k', value: '' })).status).toBe(400);
    expect((await remove(admin, 'nope')).status).toBe(400);
  });

  it('is for administrators only', async () => {
    const uuid = (await create(admin, { key: 'guarded.key', value: 'secret' })).json.uuid as string;
    for (const auth of [user, {}]) {
      const status = 'authorization' in auth ? 403 : 401;
      expect((await list(auth)).status).toBe(status);
      expect((await get(auth, uuid)).status).toBe(status);
      expect((await create(auth, { key: 'by.user', value: '' })).status).toBe(status);
      expect((await update(auth, uuid, { key: 'by.user', value: '' })).status).toBe(status);
      expect((await remove(auth, uuid)).status).toBe(status);
    }
    expect((await get(admin, uuid)).json.value).toBe('secret');
  });
});
