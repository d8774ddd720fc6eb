import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { openTestDatabase } from '../../test-support/test-db.js';
import { buildApp } from '../../app.js';
import { ChangeNotices, TopicCache } from './change-notices.js';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

/**
 * Sessions, API keys, access to images and the set lists are kept in memory (ChangeNotices). Every
 * change that takes access away must take effect on the next request, with the cache warm.
 */
describe('cached access follows every change at once', () => {
  let t: TestApp;
  let owner: User;
  let admin: User;
  let setId: string;
  let imageId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    admin = await signedInUser(t.app, { admin: true });
    setId = await createSet(t.app, owner.auth, 'Cached');
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'page.png', bytes: await testImage('png', 300, 200) }]);
    imageId = res.json.documentImages[0].uuid;
  });
  afterAll(() => t.close());

  const tile = (auth?: { authorization: string }) => call(t.app, { method: 'GET', url: `/iiif/3/${imageId}/full/64,/0/default.jpg`, headers: auth });
  const thumbnail = (auth?: { authorization: string }) => call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/thumbnail`, headers: auth });
  const sets = async (auth: { authorization: string }) => {
    const res = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: auth });
    expect(res.status).toBe(200);
    return (res.json as { uuid: string; imageset: string }[]).map((s) => s.imageset);
  };
  const updateSet = (changes: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner.auth, payload: { uuid: setId, imageset: 'Cached', ...changes } });

  it('answers a cached tile and thumbnail without a query', async () => {
    expect((await tile(owner.auth)).status).toBe(200);
    expect((await thumbnail(owner.auth)).status).toBe(200);
    const queries = countQueries(t.app.database);
    expect((await tile(owner.auth)).status).toBe(200);
    expect((await thumbnail(owner.auth)).status).toBe(200);
    expect((await sets(owner.auth)).length).toBeGreaterThan(0);
    await sets(owner.auth);
    expect(queries.stop()).toBe(1); // the first list; the second comes from memory
  });

  it('takes a read away when the ACL entry or the group membership that gave it goes', async () => {
    const reader = await signedInUser(t.app);
    const group = await t.app.services.groups.create(admin.principal, 'Readers of the cached set');
    const hierarchy = await t.app.services.groups.addMembership(admin.principal, group.id, { userId: reader.userId, role: 'MEMBER' });
    const entry = await call(t.app, { method: 'POST', url: `/api/pim/acl/subject/${setId}`, headers: owner.auth, payload: { group: group.id, role: 'MEMBER', permission: 'READ' } });
    expect(entry.status).toBe(200);
    expect((await tile(reader.auth)).status).toBe(200);
    expect((await thumbnail(reader.auth)).status).toBe(200);
    expect(await sets(reader.auth)).toContain('Cached');

    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/acl/${entry.json[0].uuid}`, headers: owner.auth })).status).toBe(204);
    expect((await tile(reader.auth)).status).toBe(404);
    expect((await thumbnail(reader.auth)).status).toBe(404);
    expect(await sets(reader.auth)).not.toContain('Cached');

    // Given again through the group, then the membership is removed.
    await call(t.app, { method: 'POST', url: `/api/pim/acl/subject/${setId}`, headers: owner.auth, payload: { group: group.id, role: 'MEMBER', permission: 'READ' } });
    expect((await tile(reader.auth)).status).toBe(200);
    const membership = hierarchy.memberships.find((m) => m.user.id === reader.userId)!;
    await t.app.services.groups.removeMembership(admin.principal, group.id, membership.id);
    expect((await tile(reader.auth)).status).toBe(404);
  });

  it('closes a public set to others and to anonymous IIIF clients when it stops being public or published', async () => {
    const other = await signedInUser(t.app);
    expect((await updateSet({ publicDocumentImageSet: true, publish: true })).status).toBe(200);
    expect((await tile(other.auth)).status).toBe(200);
    expect((await tile()).status).toBe(200);
    expect(await sets(other.auth)).toContain('Cached');

    expect((await updateSet({ publish: false })).status).toBe(200);
    expect((await tile()).status).toBe(401);
    expect((await tile(other.auth)).status).toBe(200);
    expect((await updateSet({ publicDocumentImageSet: false })).status).toBe(200);
    expect((await tile(other.auth)).status).toBe(404);
    expect(await sets(other.auth)).not.toContain('Cached');
  });

  it('shows a new or renamed set in the list at once', async () => {
    expect(await sets(owner.auth)).toContain('Cached');
    const id = await createSet(t.app, owner.auth, 'Made just now');
    expect(await sets(owner.auth)).toContain('Made just now');
    const renamed = await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner.auth, payload: { uuid: id, imageset: 'Renamed just now' } });
    expect(renamed.status).toBe(200);
    expect(await sets(owner.auth)).toEqual(expect.arrayContaining(['Renamed just now']));
    expect(await sets(owner.auth)).not.toContain('Made just now');
    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${id}`, headers: owner.auth })).status).toBe(204);
    expect(await sets(owner.auth)).not.toContain('Renamed just now');
  });

  it('refuses a session at once after logout, and a user at once after being disabled', async () => {
    const leaving = await signedInUser(t.app);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: leaving.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `/api/google/${leaving.token}` })).status).toBe(204);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: leaving.auth })).status).toBe(401);

    const disabled = await signedInUser(t.app);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: disabled.auth })).status).toBe(200);
    await t.app.services.users.setDisabled(disabled.userId, true);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: disabled.auth })).status).toBe(401);
  });

  it('refuses an API key at once when it is disabled, and a role taken from it', async () => {
    const { row, apiKey } = await t.app.services.apiKeys.create({ userName: 'harvester', roles: ['ADMIN'] });
    const auth = { authorization: `ApiKey ${apiKey}` };
    expect((await tile(auth)).status).toBe(200);
    await t.app.services.apiKeys.setDisabled(admin.principal, row.id, true);
    const refused = await tile(auth);
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe('This API key is disabled.');
  });

  it('forgets an image that leaves its last readable set', async () => {
    const reader = await signedInUser(t.app);
    const shared = await createSet(t.app, owner.auth, 'Shared for a while');
    await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner.auth, payload: { uuid: shared, imageset: 'Shared for a while', publicDocumentImageSet: true } });
    const res = await upload(t.app, owner.auth, shared, [{ fileName: 'leaving.png', bytes: await testImage('png', 120, 80) }]);
    const leaving = res.json.documentImages[0].uuid as string;
    const get = () => call(t.app, { method: 'GET', url: `/api/pim/documentimage/${leaving}/thumbnail`, headers: reader.auth });
    expect((await get()).status).toBe(200);
    await t.app.database.db.deleteFrom('image_set_image').where('image_id', '=', leaving).execute();
    expect((await get()).status).toBe(404);
  });
});

describe.runIf(process.env.PIM_TEST_DB === 'postgres')('two servers on one PostgreSQL database', () => {
  it("drops a grant another server took away, as soon as that server's notice arrives", async () => {
    const t = await createTestApp();
    const url = (t.app.database as Database & { url?: string }).url!;
    const second = await openDatabase({ kind: 'postgres', url });
    const other = await buildApp(t.config, { database: second });
    try {
      const owner = await signedInUser(t.app);
      const reader = await signedInUser(t.app);
      const setId = await createSet(t.app, owner.auth, 'Seen by two servers');
      const res = await upload(t.app, owner.auth, setId, [{ fileName: 'page.png', bytes: await testImage('png', 200, 100) }]);
      const imageId = res.json.documentImages[0].uuid as string;
      const share = (isPublic: boolean) =>
        call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner.auth, payload: { uuid: setId, imageset: 'Seen by two servers', publicDocumentImageSet: isPublic } });
      const tileThere = async () => (await call(other, { method: 'GET', url: `/iiif/3/${imageId}/full/32,/0/default.jpg`, headers: reader.auth })).status;
      expect((await share(true)).status).toBe(200);
      await expect.poll(tileThere, { timeout: 15_000 }).toBe(200);
      expect(await tileThere()).toBe(200); // now from the second server's memory
      expect((await share(false)).status).toBe(200);
      await expect.poll(tileThere, { timeout: 15_000 }).toBe(404);
    } finally {
      await other.close();
      await second.close();
      await t.close();
    }
  });
});

describe('a cache never keeps what was read while a change came in', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await migrate(database);
  });
  afterAll(() => database.close());

  it('drops what it holds on a notice of its topics, and keeps a value read across a notice out', async () => {
    const notices = new ChangeNotices();
    await notices.start(database);
    const cache = new TopicCache<string, number>(notices, ['acl']);
    expect(await cache.through('a', async () => 1)).toBe(1);
    expect(await cache.through('a', async () => 2)).toBe(1);
    notices.bump('images'); // another topic
    expect(cache.get('a')).toBe(1);
    notices.bump('acl');
    expect(cache.get('a')).toBeUndefined();
    const raced = await cache.through('b', async () => {
      notices.bump('acl');
      return 3;
    });
    expect(raced).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    await notices.close();
    expect(await cache.through('c', async () => 4)).toBe(4);
    expect(cache.get('c')).toBeUndefined(); // not listening: nothing is kept
  });

  it('hears a notice sent through the database before the statement that sent it returns', async () => {
    const notices = new ChangeNotices();
    await notices.start(database);
    const cache = new TopicCache<string, number>(notices, ['sets']);
    await cache.through('x', async () => 1);
    await database.db.insertInto('document_image_set').values({ id: crypto.randomUUID(), name: 'noticed', owner_id: null }).execute();
    expect(cache.get('x')).toBeUndefined();
    await notices.close();
  });
});

/** Counts the statements the app's database runs until `stop()`. */
function countQueries(database: Database): { stop(): number } {
  const executor = database.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  let n = 0;
  executor.executeQuery = ((...args: Parameters<typeof original>) => {
    n += 1;
    return original(...args);
  }) as typeof original;
  return {
    stop() {
      executor.executeQuery = original;
      return n;
    },
  };
}
