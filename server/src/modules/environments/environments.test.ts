import { randomUUID } from 'node:crypto';
import { ENVIRONMENT_SWITCHES } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type Auth = { authorization: string } | Record<string, never>;

describe('environments API', () => {
  let t: TestApp;
  let admin: Auth;
  let user: Auth;
  let indexId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { admin: true })).auth;
    user = (await signedInUser(t.app)).auth;
    indexId = (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'letters-index' } })).json.uuid;
  });
  afterAll(() => t.close());

  const create = (auth: Auth, payload: object) => call(t.app, { method: 'POST', url: '/api/pim/environment', headers: auth, payload });
  const update = (auth: Auth, id: string, payload: object) => call(t.app, { method: 'PUT', url: `/api/pim/environment/${id}`, headers: auth, payload });
  const get = (auth: Auth, id: string) => call(t.app, { method: 'GET', url: `/api/pim/environment/${id}`, headers: auth });
  const list = (auth: Auth) => call(t.app, { method: 'GET', url: '/api/pim/environment', headers: auth });

  it('creates an environment with every switch off by default and empty texts', async () => {
    const res = await create(admin, { title: ' Letters ', path: 'plain' });
    expect(res.status).toBe(200);
    const env = res.json;
    expect(env).toMatchObject({
      uuid: expect.any(String),
      title: 'Letters',
      path: 'plain',
      address: '',
      domain: '',
      elasticSearchIndex: null,
      about: '',
      mainText: '',
      searchLabel: '',
      logoClass: '',
      topBarClasses: '',
      instructions: '',
    });
    for (const name of ENVIRONMENT_SWITCHES) expect(env[name], name).toBe(false);
    expect(env.generateApacheConfig).toContain('# Set the address of the environment');
    expect(env.generateApacheConfig).not.toContain('<VirtualHost');
  });

  it('stores every text and switch, derives domain and the Apache configuration, and shows the index by name', async () => {
    const switches = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name, i) => [name, i % 2 === 0]));
    const payload = {
      title: 'Prize papers',
      path: 'prize-papers',
      address: 'https://Search.Example.org/',
      elasticSearchIndex: { uuid: indexId },
      about: 'About the collection.\nTwo lines.',
      mainText: '<p>Welcome</p>',
      searchLabel: 'Search the letters',
      logoClass: 'logo logo-prize',
      topBarClasses: 'bar dark',
      instructions: 'Type a word.',
      ...switches,
      domain: 'evil.example.com',
      generateApacheConfig: 'Include /etc/passwd',
    };
    const created = await create(admin, payload);
    expect(created.status).toBe(200);
    const { domain: _sentDomain, generateApacheConfig: _sentConfig, ...stored } = payload;
    expect(created.json).toMatchObject({ ...stored, address: 'https://Search.Example.org/', elasticSearchIndex: { uuid: indexId, name: 'letters-index' } });
    expect(created.json.domain).toBe('search.example.org');
    const config = created.json.generateApacheConfig as string;
    expect(config).toContain('    ServerName search.example.org\n');
    expect(config).toContain('    ProxyPass /prize-papers/api/ http://pim.test/api/pim/elastic/letters-index/\n');
    expect(config).not.toContain('/etc/passwd');
    expect(config).not.toContain('evil');

    const id = created.json.uuid as string;
    expect((await get(admin, id)).json).toEqual(created.json);
    expect((await list(admin)).json).toContainEqual(created.json);

    const off = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, false]));
    const updated = await update(admin, id, { ...stored, ...off, title: 'Prize papers 2', address: '', elasticSearchIndex: null, publish: true });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ title: 'Prize papers 2', address: '', domain: '', elasticSearchIndex: null, publish: true, persons: false });
    expect((await get(admin, id)).json.publish).toBe(true);
  });

  it('lists environments by title', async () => {
    for (const [title, path] of [
      ['zz Last', 'order-z'],
      ['aa First', 'order-a'],
    ]) await create(admin, { title, path });
    const titles = ((await list(admin)).json as { title: string }[]).map((e) => e.title);
    expect(titles.indexOf('aa First')).toBeLessThan(titles.indexOf('zz Last'));
  });

  it('refuses a path that is taken, on create and on update (409)', async () => {
    const first = (await create(admin, { title: 'One', path: 'taken-path' })).json.uuid as string;
    const second = (await create(admin, { title: 'Two', path: 'free-path' })).json.uuid as string;
    const again = await create(admin, { title: 'Three', path: 'taken-path' });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('An environment with the path "taken-path" already exists: choose another path.');
    expect((await update(admin, second, { title: 'Two', path: 'taken-path' })).status).toBe(409);
    expect((await get(admin, second)).json.path).toBe('free-path');
    expect((await update(admin, first, { title: 'One renamed', path: 'taken-path' })).status).toBe(200);
  });

  it.each([
    [{ path: 'x' }, 'Enter a title.'],
    [{ title: 't'.repeat(256), path: 'x' }, 'A title can be at most 255 characters.'],
    [{ title: 'T' }, 'Enter a path.'],
    [{ title: 'T', path: 'Letters' }, 'A path is one URL segment'],
    [{ title: 'T', path: 'a/b' }, 'A path is one URL segment'],
    [{ title: 'T', path: 'a b' }, 'A path is one URL segment'],
    [{ title: 'T', path: '-x' }, 'A path is one URL segment'],
    [{ title: 'T', path: 'x"\nInclude /etc' }, 'A path is one URL segment'],
    [{ title: 'T', path: 'x', address: 'search.example.org' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', address: 'ftp://search.example.org' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', address: 'https://search.example.org/letters' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', address: 'https://user:pw@search.example.org' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', address: 'https://exa mple.org' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', address: 'https://example.org"\nInclude' }, 'The address is the base URL of the public site'],
    [{ title: 'T', path: 'x', about: 'a'.repeat(65_537) }, 'Can be at most 65536 characters.'],
    [{ title: 'T', path: 'x', logoClass: 'a'.repeat(1001) }, 'Can be at most 1000 characters.'],
    [{ title: 'T', path: 'x', persons: 'yes' }, 'persons'],
    [{ title: 'T', path: 'x', elasticSearchIndex: { uuid: 'nope' } }, 'Choose a search index.'],
  ])('refuses %j with a clear message and stores nothing', async (payload, message) => {
    const before = ((await list(admin)).json as unknown[]).length;
    const res = await create(admin, payload);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain(message);
    expect(((await list(admin)).json as unknown[]).length).toBe(before);
  });

  it('refuses an unknown search index with 400 and changes nothing', async () => {
    const id = (await create(admin, { title: 'Indexed', path: 'indexed', elasticSearchIndex: { uuid: indexId } })).json.uuid as string;
    const unknown = randomUUID();
    const res = await update(admin, id, { title: 'Indexed', path: 'indexed', elasticSearchIndex: { uuid: unknown } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(`There is no search index with id ${unknown}.`);
    expect((await get(admin, id)).json.elasticSearchIndex).toEqual({ uuid: indexId, name: 'letters-index' });
  });

  it('answers 404 for an unknown environment and 400 for a malformed id', async () => {
    const unknown = randomUUID();
    const missing = await get(admin, unknown);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no environment with id ${unknown}.`);
    expect((await update(admin, unknown, { title: 'T', path: 'unknown-one' })).status).toBe(404);
    expect((await get(admin, 'not-a-uuid')).status).toBe(400);
  });

  it('is for administrators only', async () => {
    const id = (await create(admin, { title: 'Guarded', path: 'guarded' })).json.uuid as string;
    for (const auth of [user, {}]) {
      const status = 'authorization' in auth ? 403 : 401;
      expect((await list(auth)).status).toBe(status);
      expect((await get(auth, id)).status).toBe(status);
      expect((await create(auth, { title: 'By user', path: 'by-user' })).status).toBe(status);
      expect((await update(auth, id, { title: 'By user', path: 'guarded' })).status).toBe(status);
    }
    expect((await get(admin, id)).json.title).toBe('Guarded');
  });
});
