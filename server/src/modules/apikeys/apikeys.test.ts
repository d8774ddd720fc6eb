import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../platform/auth/tokens.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = Record<string, string>;

describe('API keys ("minions")', () => {
  let t: TestApp;
  let admin: User;
  let user: User;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { admin: true });
    user = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, auth: Auth = admin.auth, payload?: unknown) =>
    call(t.app, { method, url: `/api/pim/${url}`, headers: auth, payload: payload as Record<string, unknown> });
  const create = async (userName: string, roles: string[]) => {
    const res = await api('POST', 'apikey', admin.auth, { userName, roles });
    expect(res.status).toBe(200);
    return res.json as { uuid: string; apiKey: string; roles: string[]; userName: string };
  };

  it('makes a high-entropy key, shows it whole once, and keeps only its hash and start', async () => {
    const made = await create('  harvester ', ['minion', 'MINION']);
    expect(made).toMatchObject({ userName: 'harvester', roles: ['MINION'], disabled: false });
    expect(made.apiKey).toMatch(/^pim_[A-Za-z0-9_-]{40,}$/);
    const row = await t.app.database.db.selectFrom('api_key').selectAll().where('id', '=', made.uuid).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashSecret(made.apiKey));
    expect(JSON.stringify(row)).not.toContain(made.apiKey);
    expect(row.key_prefix).toBe(made.apiKey.slice(0, 12));

    const list = await api('GET', 'apikey');
    const listed = list.json.find((k: { uuid: string }) => k.uuid === made.uuid);
    expect(listed.apiKey).toBe(`${made.apiKey.slice(0, 12)}…`);
    expect(JSON.stringify(list.json)).not.toContain(made.apiKey);
    expect((await api('GET', 'apikey/possibleroles')).json).toEqual(['ADMIN', 'MINION']);
  });

  it('refuses blank names and unknown roles, and everyone but admins', async () => {
    const blank = await api('POST', 'apikey', admin.auth, { userName: ' ', roles: [] });
    expect(blank.status).toBe(400);
    expect(blank.json.message).toContain('Enter a user name for the key.');
    const role = await api('POST', 'apikey', admin.auth, { userName: 'x', roles: ['ROOT'] });
    expect(role.status).toBe(400);
    expect(role.json.message).toBe('"ROOT" is not a role an API key can have. Choose from: ADMIN, MINION.');
    for (const [method, url] of [
      ['GET', 'apikey'],
      ['GET', 'apikey/possibleroles'],
      ['POST', 'apikey'],
      ['PUT', `apikey/${randomUUID()}/disable`],
    ] as const) {
      expect((await api(method, url, user.auth, { userName: 'mine', roles: [] })).status, url).toBe(403);
      expect((await api(method, url, {}, { userName: 'mine', roles: [] })).status, url).toBe(401);
    }
  });

  it('acts with its own roles only, and answers 401 while disabled', async () => {
    const worker = await create('worker', ['MINION']);
    const boss = await create('boss', ['ADMIN']);
    const as = (key: string): Auth => ({ authorization: `ApiKey ${key}` });
    expect((await api('GET', 'users', as(boss.apiKey))).status).toBe(200);
    expect((await api('GET', 'users', as(worker.apiKey))).status).toBe(403);
    expect((await call(t.app, { method: 'POST', url: '/api/google/getRoles', headers: as(worker.apiKey) })).json).toEqual([
      'AUTHENTICATED',
      'MINION',
    ]);
    // A key is never a user: it has no own profile.
    expect((await api('GET', 'users/self', as(boss.apiKey))).status).toBe(404);

    const off = await api('PUT', `apikey/${worker.uuid}/disable`);
    expect(off.json).toMatchObject({ uuid: worker.uuid, disabled: true, apiKey: `${worker.apiKey.slice(0, 12)}…` });
    const refused = await api('GET', 'documentimageset', as(worker.apiKey));
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe('This API key is disabled.');
    expect((await api('PUT', `apikey/${worker.uuid}/enable`)).json.disabled).toBe(false);
    expect((await api('GET', 'documentimageset', as(worker.apiKey))).status).toBe(200);
    expect((await api('GET', 'documentimageset', as(`${worker.apiKey}x`))).status).toBe(401);
  });

  it('finds the key to enable or disable by its id, the start the list shows, or the whole key', async () => {
    const key = await create('lookup', []);
    const start = key.apiKey.slice(0, 12);
    for (const ref of [start, `${start}…`, encodeURIComponent(`${start}…`), key.apiKey, key.uuid.toUpperCase()]) {
      const res = await api('PUT', `apikey/${ref}/disable`);
      expect(res.status, ref).toBe(200);
      expect(res.json.uuid).toBe(key.uuid);
    }
    expect((await api('PUT', `apikey/${randomUUID()}/enable`)).status).toBe(404);
    const unknown = await api('PUT', 'apikey/pim_zzzzzzzz/enable');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('There is no API key pim_zzzzzzzz.');
    // Two keys that start alike: the start is not enough.
    await t.app.database.db.updateTable('api_key').set({ key_prefix: 'pim_sameSame' }).where('user_name', 'in', ['worker', 'boss']).execute();
    const ambiguous = await api('PUT', 'apikey/pim_sameSame/disable');
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.json.message).toBe("Several API keys start with pim_sameSame: use the key's id instead.");
  });
});
