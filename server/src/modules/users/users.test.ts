import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = Record<string, string>;
const ANONYMOUS: Auth = {};

describe('users: list, read, update, enable and disable', () => {
  let t: TestApp;
  let admin: User;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { admin: true, name: 'First admin' });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, auth: Auth, payload?: unknown) =>
    call(t.app, { method, url: `/api/pim/${url}`, headers: auth, payload: payload as Record<string, unknown> });
  const groupWith = async (name: string, userId: string) => {
    const group = await t.app.services.groups.create(admin.principal, name);
    await t.app.services.groups.addMembership(admin.principal, group.id, { userId, role: 'MEMBER' });
    return group.id;
  };

  it('lists every user with their groups for admins only, by name', async () => {
    const bea = await signedInUser(t.app, { name: 'bea' });
    const groupId = await groupWith('Illuminators', bea.userId);
    await t.app.services.groups.addMembership(admin.principal, groupId, { userId: bea.userId, role: 'EDITOR' });
    const list = await api('GET', 'users', admin.auth);
    expect(list.status).toBe(200);
    const names = list.json.map((u: { name: string }) => u.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' })));
    const row = list.json.find((u: { uuid: string }) => u.uuid === bea.userId);
    // Two roles in one group: the group once.
    expect(row).toMatchObject({ name: 'bea', roles: [], pimGroups: [{ uuid: groupId, name: 'Illuminators' }], primaryGroup: null, disabled: false });
    expect(row).not.toHaveProperty('passwordHash');
    expect((await api('GET', 'users', bea.auth)).status).toBe(403);
    expect((await api('GET', 'users', ANONYMOUS)).status).toBe(401);
  });

  it('shows everyone their own record, and others only to admins', async () => {
    const cas = await signedInUser(t.app, { name: 'Cas' });
    const dirk = await signedInUser(t.app, { name: 'Dirk' });
    for (const id of ['self', cas.userId]) expect((await api('GET', `users/${id}`, cas.auth)).json).toMatchObject({ uuid: cas.userId, name: 'Cas' });
    const other = await api('GET', `users/${dirk.userId}`, cas.auth);
    expect(other.status).toBe(403);
    expect(other.json.message).toBe('Seeing other users needs the ADMIN role.');
    expect((await api('GET', `users/${dirk.userId}`, admin.auth)).json).toMatchObject({ uuid: dirk.userId });
    const unknown = randomUUID();
    expect((await api('GET', `users/${unknown}`, admin.auth)).status).toBe(404);
    expect((await api('GET', 'users/nobody', admin.auth)).json.message).toContain("The user id must be a UUID or 'self'.");
    expect((await api('GET', 'users/possibleroles', cas.auth)).json).toEqual(['ADMIN']);
  });

  it('lets users change their own name, avatar and primary group, but never give themselves a role', async () => {
    const eva = await signedInUser(t.app, { name: 'Eva' });
    const groupId = await groupWith('Binders', eva.userId);
    const saved = await api('POST', 'users/self/update', eva.auth, {
      ...(await api('GET', 'users/self', eva.auth)).json,
      name: '  Eva B. ',
      avatar: 'elephant',
      primaryGroup: { uuid: groupId, name: 'Binders' },
      email: 'changed@example.org',
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ name: 'Eva B.', avatar: 'elephant', primaryGroup: { uuid: groupId, name: 'Binders' } });
    // Read-only fields are ignored.
    expect(saved.json.email).not.toBe('changed@example.org');

    const grab = await api('POST', `users/${eva.userId}/update`, eva.auth, { name: 'Eva', roles: ['ADMIN'] });
    expect(grab.status).toBe(403);
    expect(grab.json.message).toBe('Nobody can give themselves a role.');
    expect((await api('POST', 'users/self/update', eva.auth, { name: 'Eva', roles: [] })).status).toBe(200);

    const notMine = await api('POST', 'users/self/update', eva.auth, { name: 'Eva', primaryGroup: randomUUID() });
    expect(notMine.status).toBe(400);
    expect(notMine.json.message).toBe('The primary group must be one of the groups the user is a member of.');
    expect((await api('POST', 'users/self/update', eva.auth, { name: ' ' })).json.message).toContain('Enter a name.');
    expect((await api('POST', 'users/self/update', eva.auth, { name: 'x'.repeat(256) })).status).toBe(400);
    const other = await signedInUser(t.app, { name: 'Other' });
    expect((await api('POST', `users/${other.userId}/update`, eva.auth, { name: 'Hacked' })).status).toBe(403);
    expect((await api('POST', 'users/self/update', ANONYMOUS, { name: 'Nobody' })).status).toBe(401);

    // Leaving the group takes the primary group with it.
    const tree = await api('GET', `pimgroups/${groupId}/membershiphierarchy`, admin.auth);
    await api('PUT', `pimgroups/${groupId}/hierarchy/removemembership`, admin.auth, { membershipId: tree.json.memberships[0].id });
    expect((await api('GET', 'users/self', eva.auth)).json).toMatchObject({ pimGroups: [], primaryGroup: null });
  });

  it('lets admins change the roles of others, in canonical spelling, from the known roles only', async () => {
    const finn = await signedInUser(t.app, { name: 'Finn' });
    const promoted = await api('POST', `users/${finn.userId}/update`, admin.auth, { name: 'Finn', roles: ['admin', 'ADMIN'] });
    expect(promoted.status).toBe(200);
    expect(promoted.json.roles).toEqual(['ADMIN']);
    // Finn is an admin now and may list users.
    expect((await api('GET', 'users', finn.auth)).status).toBe(200);
    const unknown = await api('POST', `users/${finn.userId}/update`, admin.auth, { name: 'Finn', roles: ['KING'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('"KING" is not a role a user can have. Choose from: ADMIN.');
    expect((await api('POST', `users/${finn.userId}/update`, admin.auth, { name: 'Finn', roles: [] })).json.roles).toEqual([]);
  });

  it('never demotes or disables the last active administrator, nor lets admins disable themselves', async () => {
    const t2 = await createTestApp();
    try {
      const only = await signedInUser(t2.app, { admin: true, name: 'Only admin' });
      const api2 = (method: 'POST' | 'PUT', url: string, auth: Auth, payload?: unknown) =>
        call(t2.app, { method, url: `/api/pim/${url}`, headers: auth, payload: payload as Record<string, unknown> });
      const demote = await api2('POST', 'users/self/update', only.auth, { name: 'Only admin', roles: [] });
      expect(demote.status).toBe(409);
      expect(demote.json.message).toBe('Only admin is the last active administrator. Make another user an administrator first.');
      const self = await api2('PUT', `users/${only.userId}/disable`, only.auth);
      expect(self.status).toBe(400);
      expect(self.json.message).toBe('You cannot disable your own account.');

      const second = await signedInUser(t2.app, { admin: true, name: 'Second admin' });
      expect((await api2('POST', 'users/self/update', only.auth, { name: 'Only admin', roles: [] })).status).toBe(200);
      // Now Second admin is the only one left: nobody may disable or demote them.
      const disable = await api2('PUT', `users/${second.userId}/disable`, second.auth);
      expect(disable.status).toBe(400);
      const demoteSecond = await api2('POST', `users/${second.userId}/update`, second.auth, { name: 'Second admin', roles: [] });
      expect(demoteSecond.status).toBe(409);
    } finally {
      await t2.close();
    }
  });

  it('disables a user at once: their sessions end and their next call answers 401; enabling lets them sign in again', async () => {
    const gus = await signedInUser(t.app, { name: 'Gus' });
    expect((await api('GET', 'documentimageset', gus.auth)).status).toBe(200);
    const off = await api('PUT', `users/${gus.userId}/disable`, admin.auth);
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ uuid: gus.userId, disabled: true });
    expect((await api('GET', 'documentimageset', gus.auth)).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: '/api/google/getRoles', headers: gus.auth })).status).toBe(403);
    // A disabled user leaves the user picker.
    expect((await api('GET', 'users/autocomplete?filter=Gus', admin.auth)).json.results).toEqual([]);

    const on = await api('PUT', `users/${gus.userId}/enable`, admin.auth);
    expect(on.json.disabled).toBe(false);
    const token = await t.app.services.sessions.start(gus.userId);
    expect((await api('GET', 'documentimageset', { authorization: `Bearer ${token}` })).status).toBe(200);

    const other = await signedInUser(t.app);
    expect((await api('PUT', `users/${gus.userId}/disable`, other.auth)).status).toBe(403);
    expect((await api('PUT', `users/${gus.userId}/disable`, ANONYMOUS)).status).toBe(401);
    expect((await api('PUT', `users/${randomUUID()}/disable`, admin.auth)).status).toBe(404);
  });
});
