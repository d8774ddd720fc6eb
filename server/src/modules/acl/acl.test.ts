import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = { authorization: string } | undefined;

describe('ACL API and the group picker', () => {
  let t: TestApp;
  let owner: User;
  let admin: User;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    admin = await signedInUser(t.app, { admin: true });
  });
  afterAll(() => t.close());

  const groups = () => t.app.services.groups;
  const list = (auth: Auth, setId: string) => call(t.app, { method: 'GET', url: `/api/pim/acl/allfor/${setId}`, headers: auth });
  const add = (auth: Auth, setId: string, payload: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: `/api/pim/acl/subject/${setId}`, headers: auth, payload });
  const remove = (auth: Auth, entryId: string) => call(t.app, { method: 'DELETE', url: `/api/pim/acl/${entryId}`, headers: auth });

  it('adds entries, lists them by group, role and permission, and removes them', async () => {
    const setId = await createSet(t.app, owner.auth, 'With an ACL');
    const scribes = await groups().create(admin.principal, 'Scribes');
    const archivists = await groups().create(admin.principal, 'Archivists');
    expect((await list(owner.auth, setId)).json).toEqual([]);

    await add(owner.auth, setId, { group: scribes.id, role: 'MEMBER', permission: 'WRITE' });
    const added = await add(owner.auth, setId, { group: archivists.id, role: 'editor', permission: 'READ' });
    expect(added.status).toBe(200);
    expect(added.json).toEqual([
      { uuid: expect.any(String), group: { uuid: archivists.id, name: 'Archivists' }, role: 'EDITOR', permission: 'READ' },
      { uuid: expect.any(String), group: { uuid: scribes.id, name: 'Scribes' }, role: 'MEMBER', permission: 'WRITE' },
    ]);
    expect((await list(owner.auth, setId)).json).toEqual(added.json);

    const gone = await remove(owner.auth, added.json[0].uuid);
    expect(gone.status).toBe(204);
    expect((await list(owner.auth, setId)).json).toEqual([added.json[1]]);
    const twice = await remove(owner.auth, added.json[0].uuid);
    expect(twice.status).toBe(404);
    expect(twice.json.message).toBe(`There is no ACL entry with id ${added.json[0].uuid}.`);
  });

  it('refuses duplicates, unknown groups and roles, and incomplete entries with clear messages', async () => {
    const setId = await createSet(t.app, owner.auth, 'Strict ACL');
    const group = await groups().create(admin.principal, 'Once only');
    await add(owner.auth, setId, { group: group.id, role: 'MEMBER', permission: 'READ' });
    const dup = await add(owner.auth, setId, { group: group.id, role: 'member', permission: 'READ' });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toBe('This group already has this role and permission.');

    const unknown = randomUUID();
    const noGroup = await add(owner.auth, setId, { group: unknown, role: 'MEMBER', permission: 'READ' });
    expect(noGroup.status).toBe(400);
    expect(noGroup.json.message).toBe(`There is no group with id ${unknown}. Choose one from the list.`);
    const noRole = await add(owner.auth, setId, { group: group.id, role: 'KING', permission: 'READ' });
    expect(noRole.status).toBe(400);
    expect(noRole.json.message).toBe('Choose a role: MEMBER, EDITOR, ADMIN.');
    for (const [payload, message] of [
      [{ role: 'MEMBER', permission: 'READ' }, 'Choose a group.'],
      [{ group: group.id, role: ' ', permission: 'READ' }, 'Choose a role.'],
      [{ group: group.id, role: 'MEMBER', permission: 'ALL' }, 'Choose a permission: READ, WRITE, DELETE or ADMIN.'],
    ] as const) {
      const res = await add(owner.auth, setId, payload);
      expect(res.status).toBe(400);
      expect(res.json.message).toContain(message);
    }
    expect((await list(owner.auth, setId)).json).toHaveLength(1);
  });

  it('lets those who may read a set see its ACL, and only its owner or an admin change it', async () => {
    const setId = await createSet(t.app, owner.auth, 'Guarded');
    const group = await groups().create(admin.principal, 'Guards');
    const reader = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    await groups().addMembership(admin.principal, group.id, { userId: reader.userId, role: 'MEMBER' });
    const entries = (await add(owner.auth, setId, { group: group.id, role: 'MEMBER', permission: 'WRITE' })).json;

    expect((await list(reader.auth, setId)).status).toBe(200);
    expect((await list(stranger.auth, setId)).status).toBe(404);
    expect((await list(undefined, setId)).status).toBe(401);

    const byWriter = await add(reader.auth, setId, { group: group.id, role: 'ADMIN', permission: 'DELETE' });
    expect(byWriter.status).toBe(403);
    expect(byWriter.json.message).toBe(
      'You may read this image set but not change who has access to it: that needs ADMIN permission on it, or being its owner or an administrator.',
    );
    expect((await add(stranger.auth, setId, { group: group.id, role: 'ADMIN', permission: 'READ' })).status).toBe(404);
    expect((await add(undefined, setId, { group: group.id, role: 'ADMIN', permission: 'READ' })).status).toBe(401);
    expect((await remove(reader.auth, entries[0].uuid)).status).toBe(403);
    expect((await remove(stranger.auth, entries[0].uuid)).status).toBe(404);
    expect((await remove(undefined, entries[0].uuid)).status).toBe(401);

    expect((await add(admin.auth, setId, { group: group.id, role: 'ADMIN', permission: 'READ' })).status).toBe(200);
    expect((await remove(admin.auth, entries[0].uuid)).status).toBe(204);
    // The WRITE grant is gone, so the reader no longer sees the set at all.
    expect((await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}`, headers: reader.auth })).status).toBe(404);
  });

  it('lets holders of ADMIN permission on a set manage its ACL and publish it, but not holders of DELETE', async () => {
    const setId = await createSet(t.app, owner.auth, 'Delegated');
    const stewards = await groups().create(admin.principal, 'Stewards');
    const cleaners = await groups().create(admin.principal, 'Cleaners');
    const steward = await signedInUser(t.app);
    const cleaner = await signedInUser(t.app);
    await groups().addMembership(admin.principal, stewards.id, { userId: steward.userId, role: 'EDITOR' });
    await groups().addMembership(admin.principal, cleaners.id, { userId: cleaner.userId, role: 'MEMBER' });
    await add(owner.auth, setId, { group: stewards.id, role: 'EDITOR', permission: 'ADMIN' });
    await add(owner.auth, setId, { group: cleaners.id, role: 'MEMBER', permission: 'DELETE' });

    // The set tells each caller what they may do with it, for the screen to offer just that.
    const permissionsOf = async (auth: Auth) =>
      (await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}`, headers: auth })).json.permissions;
    expect(await permissionsOf(steward.auth)).toEqual(['READ', 'WRITE', 'DELETE', 'ADMIN']);
    expect(await permissionsOf(cleaner.auth)).toEqual(['READ', 'WRITE', 'DELETE']);
    expect(await permissionsOf(owner.auth)).toEqual(['READ', 'WRITE', 'DELETE', 'ADMIN']);

    const byCleaner = await add(cleaner.auth, setId, { group: cleaners.id, role: 'MEMBER', permission: 'ADMIN' });
    expect(byCleaner.status).toBe(403);
    const bySteward = await add(steward.auth, setId, { group: cleaners.id, role: 'MEMBER', permission: 'READ' });
    expect(bySteward.status).toBe(200);
    expect(bySteward.json).toHaveLength(3);
    expect((await remove(steward.auth, bySteward.json.find((e: { permission: string }) => e.permission === 'READ').uuid)).status).toBe(204);

    // ADMIN includes every lower permission: the steward may also change and delete the set.
    const settings = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: steward.auth,
      payload: { uuid: setId, imageset: 'Delegated', publicDocumentImageSet: true },
    });
    expect(settings.status).toBe(200);
    const publishByCleaner = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: cleaner.auth,
      payload: { uuid: setId, imageset: 'Delegated', publicDocumentImageSet: false },
    });
    expect(publishByCleaner.status).toBe(403);
  });

  it('offers the permissions of the picker to signed-in users', async () => {
    const user = await signedInUser(t.app);
    const permissions = await call(t.app, { method: 'GET', url: '/api/pim/acl/permissions', headers: user.auth });
    expect(permissions.json).toEqual(['READ', 'WRITE', 'DELETE', 'ADMIN']);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/acl/permissions' })).status).toBe(401);
  });

  it('suggests groups by part of the name, a page of 20 at a time', async () => {
    const user = await signedInUser(t.app);
    for (let i = 1; i <= 22; i++) await groups().create(admin.principal, `Monastery ${String(i).padStart(2, '0')}`);
    const suggest = (query: string) =>
      call(t.app, { method: 'GET', url: `/api/pim/pimgroups/autocomplete?${query}`, headers: user.auth });
    const first = await suggest('filter=MONASTERY');
    expect(first.status).toBe(200);
    expect(first.json.pageSize).toBe(20);
    expect(first.json.results).toHaveLength(20);
    expect(first.json.results[0]).toEqual({ uuid: expect.any(String), name: 'Monastery 01' });
    const next = await suggest('filter=monastery&skip=20');
    expect(next.json.results.map((g: { name: string }) => g.name)).toEqual(['Monastery 21', 'Monastery 22']);
    expect((await suggest('filter=no such group')).json.results).toEqual([]);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/pimgroups/autocomplete?filter=x' })).status).toBe(401);
  });

  it('keeps group management to admins and refuses loops and unknown roles', async () => {
    const user = await signedInUser(t.app);
    await expect(groups().create(user.principal, 'Mine')).rejects.toMatchObject({ status: 403 });
    await expect(groups().create(admin.principal, '  ')).rejects.toMatchObject({ status: 400, message: 'Enter a name for the group.' });
    const top = await groups().create(admin.principal, 'Top');
    const middle = await groups().create(admin.principal, 'Middle');
    const bottom = await groups().create(admin.principal, 'Bottom');
    await groups().addSubgroup(admin.principal, top.id, middle.id);
    await groups().addSubgroup(admin.principal, middle.id, bottom.id);
    for (const [parent, child] of [
      [bottom, top],
      [bottom, middle],
      [top, top],
    ] as const) {
      await expect(groups().addSubgroup(admin.principal, parent.id, child.id)).rejects.toMatchObject({
        status: 400,
        message: 'A group cannot contain itself or one of the groups that contain it.',
      });
    }
    await expect(groups().addMembership(admin.principal, top.id, { userId: user.userId, role: 'KING' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(groups().addMembership(user.principal, top.id, { userId: user.userId, role: 'MEMBER' })).rejects.toMatchObject({
      status: 403,
    });
  });
});
