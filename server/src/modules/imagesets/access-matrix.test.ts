import type { AclPermission } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** What an actor may do with the set of its scenario; 'owner' also covers admins. */
type Capability = 'anonymous' | 'none' | 'read' | 'write' | 'delete' | 'owner';
type Need = 'read' | 'write' | 'delete' | 'owner';
const RANK: Record<Capability | Need, number> = { anonymous: -1, none: 0, read: 1, write: 2, delete: 3, owner: 4 };

/** 401 for anonymous callers, 404 when they may not even read the set, 403 when they may read it. */
function expected(cap: Capability, need: Need, success: number): number {
  if (cap === 'anonymous') return 401;
  if (cap === 'none') return 404;
  return RANK[cap] >= RANK[need] ? success : 403;
}

describe('access to image sets, their trees and their ACL, for every kind of caller', () => {
  let t: TestApp;
  let owner: User;
  let admin: User;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    admin = await signedInUser(t.app, { admin: true });
    png = await quadrantImage(4, 4);
  });
  afterAll(() => t.close());

  const groups = () => t.app.services.groups;

  /** A group whose MEMBERs get `permission` on the set, through an ACL entry the owner adds. */
  async function grant(setId: string, permission: AclPermission): Promise<string> {
    const group = await groups().create(admin.principal, `Readers of ${setId} (${permission})`);
    const res = await call(t.app, {
      method: 'POST',
      url: `/api/pim/acl/subject/${setId}`,
      headers: owner.auth,
      payload: { group: group.id, role: 'MEMBER', permission },
    });
    expect(res.status).toBe(200);
    return group.id;
  }

  const setPublic = (setId: string, name: string) =>
    call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: setId, imageset: name, publicDocumentImageSet: true },
    });

  /**
   * A fresh scenario per actor: the owner's set with one image, a public set to add as a sub-set,
   * an ACL entry to delete, and whatever makes the actor what it is.
   */
  const actors: { name: string; cap: Capability; setUp: (setId: string) => Promise<{ authorization: string } | undefined> }[] = [
    { name: 'anonymous', cap: 'anonymous', setUp: async () => undefined },
    { name: 'the owner', cap: 'owner', setUp: async () => owner.auth },
    { name: 'an admin', cap: 'owner', setUp: async () => admin.auth },
    { name: 'another user', cap: 'none', setUp: async () => (await signedInUser(t.app)).auth },
    {
      name: 'any user, on a public set',
      cap: 'read',
      setUp: async (setId) => {
        await setPublic(setId, 'Scenario for any user, on a public set');
        return (await signedInUser(t.app)).auth;
      },
    },
    {
      name: 'a member of a group granted READ',
      cap: 'read',
      setUp: async (setId) => {
        const user = await signedInUser(t.app);
        await groups().addMembership(admin.principal, await grant(setId, 'READ'), { userId: user.userId, role: 'member' });
        return user.auth;
      },
    },
    {
      name: 'a member of a sub-group of a group granted READ',
      cap: 'read',
      setUp: async (setId) => {
        const user = await signedInUser(t.app);
        const parent = await grant(setId, 'READ');
        const child = await groups().create(admin.principal, 'Sub-group');
        await groups().addSubgroup(admin.principal, parent, child.id);
        await groups().addMembership(admin.principal, child.id, { userId: user.userId, role: 'MEMBER' });
        return user.auth;
      },
    },
    {
      name: 'a member with another role than the one granted',
      cap: 'none',
      setUp: async (setId) => {
        const user = await signedInUser(t.app);
        await groups().addMembership(admin.principal, await grant(setId, 'WRITE'), { userId: user.userId, role: 'EDITOR' });
        return user.auth;
      },
    },
    {
      name: 'a member of a group granted WRITE',
      cap: 'write',
      setUp: async (setId) => {
        const user = await signedInUser(t.app);
        await groups().addMembership(admin.principal, await grant(setId, 'WRITE'), { userId: user.userId, role: 'MEMBER' });
        return user.auth;
      },
    },
    {
      name: 'a member of a group granted DELETE',
      cap: 'delete',
      setUp: async (setId) => {
        const user = await signedInUser(t.app);
        await groups().addMembership(admin.principal, await grant(setId, 'DELETE'), { userId: user.userId, role: 'MEMBER' });
        return user.auth;
      },
    },
  ];

  for (const actor of actors) {
    it(`${actor.name}: ${actor.cap}`, async () => {
      const setId = await createSet(t.app, owner.auth, `Scenario for ${actor.name}`);
      const imageId = await uploadImage(t.app, owner.auth, setId, png, 'page 1.png');
      const publicChild = await createSet(t.app, owner.auth, 'Public child');
      await setPublic(publicChild, 'Public child');
      const spare = await grant(setId, 'READ');
      const entry = (await call(t.app, { method: 'GET', url: `/api/pim/acl/allfor/${setId}`, headers: owner.auth })).json.find(
        (e: { group: { uuid: string } }) => e.group.uuid === spare,
      ).uuid as string;
      const headers = await actor.setUp(setId);
      const set = `/api/pim/documentimageset/${setId}`;

      const steps: { what: string; need: Need; success: number; method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object }[] = [
        { what: 'get', need: 'read', success: 200, method: 'GET', url: set },
        { what: 'hierarchy', need: 'read', success: 200, method: 'GET', url: `${set}/hierarchy` },
        { what: 'acl list', need: 'read', success: 200, method: 'GET', url: `/api/pim/acl/allfor/${setId}` },
        { what: 'add sub-set', need: 'write', success: 200, method: 'PUT', url: `${set}/subsets`, payload: { uuid: publicChild } },
        { what: 'remove sub-set', need: 'write', success: 200, method: 'DELETE', url: `${set}/subsets`, payload: { uuid: publicChild } },
        { what: 'add image', need: 'write', success: 200, method: 'PUT', url: `${set}/documentimages`, payload: { uuid: imageId } },
        { what: 'sort', need: 'write', success: 200, method: 'POST', url: `${set}/sort` },
        {
          what: 'update',
          need: 'write',
          success: 200,
          method: 'POST',
          url: '/api/pim/documentimageset/update',
          payload: { uuid: setId, imageset: 'Renamed', publish: true },
        },
        {
          what: 'make private or public',
          need: 'owner',
          success: 200,
          method: 'POST',
          url: '/api/pim/documentimageset/update',
          payload: { uuid: setId, imageset: 'Renamed', publicDocumentImageSet: actor.name !== 'any user, on a public set' },
        },
        {
          what: 'add ACL entry',
          need: 'owner',
          success: 200,
          method: 'POST',
          url: `/api/pim/acl/subject/${setId}`,
          payload: { group: spare, role: 'EDITOR', permission: 'READ' },
        },
        { what: 'delete ACL entry', need: 'owner', success: 204, method: 'DELETE', url: `/api/pim/acl/${entry}` },
        { what: 'remove image', need: 'write', success: 200, method: 'DELETE', url: `${set}/documentimages`, payload: { uuid: imageId } },
        { what: 'delete set', need: 'delete', success: 204, method: 'DELETE', url: set },
      ];
      const outcome: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const step of steps) {
        const res = await call(t.app, { method: step.method, url: step.url, headers, ...(step.payload && { payload: step.payload }) });
        outcome[step.what] = res.status;
        want[step.what] = expected(actor.cap, step.need, step.success);
      }
      expect(outcome).toEqual(want);

      // What the set looks like to the owner afterwards tells whether the writes really happened.
      const after = await call(t.app, { method: 'GET', url: set, headers: owner.auth });
      if (RANK[actor.cap] >= RANK.delete) {
        expect(after.status).toBe(404);
      } else {
        expect(after.json.imageset).toBe(RANK[actor.cap] >= RANK.write ? 'Renamed' : `Scenario for ${actor.name}`);
      }
    });
  }

  it('shows a set in lists and pickers exactly to those who may read it', async () => {
    const setId = await createSet(t.app, owner.auth, 'Visible to the granted');
    const reader = await signedInUser(t.app);
    const parentGroup = await grant(setId, 'READ');
    const subGroup = await groups().create(admin.principal, 'Nested readers');
    await groups().addSubgroup(admin.principal, parentGroup, subGroup.id);
    await groups().addMembership(admin.principal, subGroup.id, { userId: reader.userId, role: 'MEMBER' });
    const stranger = await signedInUser(t.app);

    const sees = async (user: User) => {
      const list = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: user.auth });
      const picker = await call(t.app, {
        method: 'GET',
        url: '/api/pim/documentimageset/autocomplete?filter=Visible%20to%20the%20granted',
        headers: user.auth,
      });
      return [
        list.json.some((s: { uuid: string }) => s.uuid === setId),
        picker.json.results.some((s: { uuid: string }) => s.uuid === setId),
      ];
    };
    expect(await sees(owner)).toEqual([true, true]);
    expect(await sees(admin)).toEqual([true, true]);
    expect(await sees(reader)).toEqual([true, true]);
    expect(await sees(stranger)).toEqual([false, false]);
  });

  it('lets a writer add only sets and images they may read', async () => {
    const setId = await createSet(t.app, owner.auth, 'Writable');
    const writer = await signedInUser(t.app);
    await groups().addMembership(admin.principal, await grant(setId, 'WRITE'), { userId: writer.userId, role: 'MEMBER' });
    const hidden = await createSet(t.app, owner.auth, 'Hidden from the writer');
    const hiddenImage = await uploadImage(t.app, owner.auth, hidden, png, 'hidden.png');
    const writersOwn = await createSet(t.app, writer.auth, 'Writer own');
    const ownImage = await uploadImage(t.app, writer.auth, writersOwn, png, 'own.png');
    const add = (what: string, uuid: string) =>
      call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${setId}/${what}`, headers: writer.auth, payload: { uuid } });
    expect((await add('subsets', hidden)).status).toBe(404);
    expect((await add('documentimages', hiddenImage)).status).toBe(404);
    expect((await add('documentimages', ownImage)).status).toBe(200);
    expect((await add('subsets', writersOwn)).status).toBe(200);
  });
});
