import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet } from '../../test-support/upload-files.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = Record<string, string>;
const ANONYMOUS: Auth = {};

describe('groups: list, create, rename, delete, memberships, subgroups and pickers', () => {
  let t: TestApp;
  let admin: User;
  let user: User;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { admin: true, name: 'Admin' });
    user = await signedInUser(t.app, { name: 'Plain user' });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, auth: Auth = admin.auth) =>
    call(t.app, { method, url: `/api/pim/${url}`, headers: auth, payload: payload as Record<string, unknown> });
  const create = async (name: string) => {
    const res = await api('POST', 'pimgroups/create', { name });
    expect(res.status).toBe(200);
    return res.json as { uuid: string; name: string };
  };
  const change = (groupId: string, action: string, payload: unknown, auth: Auth = admin.auth) =>
    api('PUT', `pimgroups/${groupId}/hierarchy/${action}`, payload, auth);

  it('creates, lists with counts, renames and deletes groups; admins only', async () => {
    const made = await api('POST', 'pimgroups/create', { name: '  Scribes of Utrecht ' });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ name: 'Scribes of Utrecht', memberCount: 0, subgroupCount: 0, deleted: null });
    const id = made.json.uuid as string;
    const sub = await create('Apprentices');
    await change(id, 'addmembership', { userId: user.userId, role: 'member' });
    await change(id, 'addSubgroup', { uuid: sub.uuid });

    const list = await api('GET', 'pimgroups');
    expect(list.status).toBe(200);
    expect(list.json.find((g: { uuid: string }) => g.uuid === id)).toMatchObject({ memberCount: 1, subgroupCount: 1 });

    const renamed = await api('POST', `pimgroups/${id}/update`, { name: 'Scriptorium' });
    expect(renamed.json).toMatchObject({ uuid: id, name: 'Scriptorium' });

    expect((await api('DELETE', `pimgroups/${sub.uuid}`)).status).toBe(204);
    expect((await api('DELETE', `pimgroups/${sub.uuid}`)).status).toBe(404);
    const after = await api('GET', 'pimgroups');
    expect(after.json.map((g: { uuid: string }) => g.uuid)).not.toContain(sub.uuid);
    // A deleted subgroup leaves the hierarchy and the count of its parent.
    expect(after.json.find((g: { uuid: string }) => g.uuid === id)).toMatchObject({ subgroupCount: 0 });
    expect((await api('GET', `pimgroups/${id}/membershiphierarchy`)).json.subgroups).toEqual([]);
    expect((await api('GET', `pimgroups/autocomplete?filter=Apprent`, undefined, user.auth)).json.results).toEqual([]);

    for (const [method, url, payload] of [
      ['GET', 'pimgroups', undefined],
      ['POST', 'pimgroups/create', { name: 'Mine' }],
      ['POST', `pimgroups/${id}/update`, { name: 'Mine' }],
      ['DELETE', `pimgroups/${id}`, undefined],
      ['GET', `pimgroups/${id}/membershiphierarchy`, undefined],
      ['GET', `pimgroups/autocomplete/${id}`, undefined],
    ] as const) {
      expect((await api(method, url, payload, user.auth)).status, url).toBe(403);
      expect((await api(method, url, payload, ANONYMOUS)).status, url).toBe(401);
    }
  });

  it('refuses blank, too long and malformed input with clear messages', async () => {
    const blank = await api('POST', 'pimgroups/create', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.json.message).toContain('Enter a name for the group.');
    const long = await api('POST', 'pimgroups/create', { name: 'x'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.json.message).toContain('A group name can be at most 255 characters.');
    expect((await api('GET', 'pimgroups/not-a-uuid/membershiphierarchy')).json.message).toContain('The group id must be a UUID.');
    const unknown = randomUUID();
    const missing = await api('GET', `pimgroups/${unknown}/membershiphierarchy`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no group with id ${unknown}.`);
    expect((await api('POST', `pimgroups/${unknown}/update`, { name: 'x' })).status).toBe(404);
  });

  it('adds and removes memberships, answering the hierarchy each time', async () => {
    const group = await create('Copyists');
    const zoe = await signedInUser(t.app, { name: 'Zoë' });
    const anna = await signedInUser(t.app, { name: 'anna' });
    await change(group.uuid, 'addmembership', { userId: zoe.userId, role: 'EDITOR' });
    const tree = await change(group.uuid, 'addmembership', { userId: anna.userId, role: 'Member' });
    expect(tree.status).toBe(200);
    expect(tree.json).toMatchObject({ uuid: group.uuid, name: 'Copyists', subgroups: [] });
    expect(tree.json.memberships).toEqual([
      { id: expect.any(String), user: { uuid: anna.userId, name: 'anna', email: expect.any(String), disabled: false }, role: 'MEMBER', leaf: true },
      { id: expect.any(String), user: { uuid: zoe.userId, name: 'Zoë', email: expect.any(String), disabled: false }, role: 'EDITOR', leaf: true },
    ]);

    const twice = await change(group.uuid, 'addmembership', { userId: anna.userId, role: 'MEMBER' });
    expect(twice.status).toBe(409);
    expect(twice.json.message).toBe('This user already has this role in the group.');
    expect((await change(group.uuid, 'addmembership', { userId: anna.userId, role: 'ADMIN' })).json.memberships).toHaveLength(3);
    const badRole = await change(group.uuid, 'addmembership', { userId: anna.userId, role: 'KING' });
    expect(badRole.status).toBe(400);
    expect(badRole.json.message).toBe('Choose a role: MEMBER, EDITOR, ADMIN.');
    const nobody = randomUUID();
    const noUser = await change(group.uuid, 'addmembership', { userId: nobody, role: 'MEMBER' });
    expect(noUser.status).toBe(400);
    expect(noUser.json.message).toBe(`There is no user with id ${nobody}. Choose one from the list.`);
    expect((await change(group.uuid, 'addmembership', { role: 'MEMBER' })).json.message).toContain('Choose a user.');

    const membershipId = tree.json.memberships[0].id as string;
    const removed = await change(group.uuid, 'removemembership', { membershipId });
    expect(removed.json.memberships.map((m: { id: string }) => m.id)).not.toContain(membershipId);
    const again = await change(group.uuid, 'removemembership', { membershipId });
    expect(again.status).toBe(404);
    // A membership of another group is not this group's to remove.
    const other = await create('Other');
    const foreign = (await change(other.uuid, 'addmembership', { userId: zoe.userId, role: 'MEMBER' })).json.memberships[0].id;
    expect((await change(group.uuid, 'removemembership', { membershipId: foreign })).status).toBe(404);
    expect((await change(group.uuid, 'addmembership', { userId: zoe.userId, role: 'MEMBER' }, user.auth)).status).toBe(403);
  });

  it('nests groups and refuses loops, however deep', async () => {
    const [top, middle, bottom] = [await create('Top'), await create('Middle'), await create('Bottom')];
    const withMiddle = await change(top.uuid, 'addSubgroup', { uuid: middle.uuid });
    expect(withMiddle.json.subgroups).toEqual([{ id: middle.uuid, name: 'Middle', leaf: false }]);
    await change(middle.uuid, 'addSubgroup', { uuid: bottom.uuid });
    for (const [parent, child] of [
      [bottom, top],
      [bottom, middle],
      [middle, top],
      [top, top],
    ]) {
      const loop = await change(parent!.uuid, 'addSubgroup', { uuid: child!.uuid });
      expect(loop.status).toBe(400);
      expect(loop.json.message).toBe('A group cannot contain itself or one of the groups that contain it.');
    }
    const dup = await change(top.uuid, 'addSubgroup', { uuid: middle.uuid });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toBe('Middle is a subgroup of Top already.');
    expect((await change(top.uuid, 'addSubgroup', { uuid: randomUUID() })).status).toBe(404);

    // The subgroup picker offers neither the group, nor the groups above it, nor its children.
    const side = await create('Sideline');
    const candidates = await api('GET', `pimgroups/autocomplete/${middle.uuid}?filter=`);
    const names = candidates.json.results.map((g: { name: string }) => g.name);
    expect(names).toContain('Sideline');
    for (const gone of ['Top', 'Middle', 'Bottom']) expect(names).not.toContain(gone);
    expect(candidates.json.pageSize).toBe(20);

    const removed = await change(middle.uuid, 'removeSubgroup', { uuid: bottom.uuid });
    expect(removed.json.subgroups).toEqual([]);
    expect((await change(middle.uuid, 'removeSubgroup', { uuid: bottom.uuid })).status).toBe(404);
    expect((await change(middle.uuid, 'removeSubgroup', { uuid: side.uuid })).status).toBe(404);
    // Now bottom may go above top.
    expect((await change(bottom.uuid, 'addSubgroup', { uuid: top.uuid })).status).toBe(200);
  });

  it('offers the membership roles of a group to everyone signed in', async () => {
    const group = await create('Roles');
    const roles = await api('GET', `pimgroups/${group.uuid}/possibleroles`, undefined, user.auth);
    expect(roles.json).toEqual(['MEMBER', 'EDITOR', 'ADMIN']);
    expect((await api('GET', `pimgroups/${randomUUID()}/possibleroles`, undefined, user.auth)).status).toBe(404);
    expect((await api('GET', `pimgroups/${group.uuid}/possibleroles`, undefined, ANONYMOUS)).status).toBe(401);
  });

  it('lets membership of a subgroup count for its parents, and a deleted group grant nothing', async () => {
    const owner = await signedInUser(t.app, { name: 'Set owner' });
    const reader = await signedInUser(t.app, { name: 'Nested reader' });
    const setId = await createSet(t.app, owner.auth, 'Nested access');
    const [parent, child] = [await create('Readers parent'), await create('Readers child')];
    await change(parent.uuid, 'addSubgroup', { uuid: child.uuid });
    await change(child.uuid, 'addmembership', { userId: reader.userId, role: 'MEMBER' });
    const grant = await api('POST', `acl/subject/${setId}`, { group: parent.uuid, role: 'MEMBER', permission: 'READ' }, owner.auth);
    expect(grant.status).toBe(200);
    const read = () => api('GET', `documentimageset/${setId}`, undefined, reader.auth);
    expect((await read()).status).toBe(200);

    await change(parent.uuid, 'removeSubgroup', { uuid: child.uuid });
    expect((await read()).status).toBe(404);
    await change(parent.uuid, 'addSubgroup', { uuid: child.uuid });
    expect((await read()).status).toBe(200);
    expect((await api('DELETE', `pimgroups/${parent.uuid}`)).status).toBe(204);
    expect((await read()).status).toBe(404);
    // The deleted group's entry leaves the ACL editor too.
    expect((await api('GET', `acl/allfor/${setId}`, undefined, owner.auth)).json).toEqual([]);
  });
});
