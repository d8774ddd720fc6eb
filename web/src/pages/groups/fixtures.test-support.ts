import type { Group, GroupHierarchy, HierarchyMembership, NamedRef } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const SCRIBES = 'b0000000-0000-4000-8000-000000000001';
export const COPYISTS = 'b0000000-0000-4000-8000-000000000002';
export const DATERS = 'b0000000-0000-4000-8000-000000000003';
export const NEW_GROUP = 'b0000000-0000-4000-8000-000000000004';
export const ADA: NamedRef = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Ada Researcher' };
export const BEN: NamedRef = { uuid: '22222222-2222-4222-8222-222222222222', name: 'Ben Archivist' };
export const ADA_EDITOR = 'e0000000-0000-4000-8000-000000000001';
export const BEN_MEMBER = 'e0000000-0000-4000-8000-000000000002';
export const CARL_MEMBER = 'e0000000-0000-4000-8000-000000000003';
export const GROUP_ROLES_ANSWER = ['MEMBER', 'EDITOR', 'ADMIN'];

export const LIST_PATH = '/api/pim/pimgroups';
export const groupPath = (uuid: string) => `/api/pim/pimgroups/${uuid}`;
export const hierarchyPath = (uuid: string) => `/api/pim/pimgroups/${uuid}/membershiphierarchy`;
export const changePath = (uuid: string, action: string) => `/api/pim/pimgroups/${uuid}/hierarchy/${action}`;

export function groupFixture(uuid: string, name: string, overrides: Partial<Group> = {}): Group {
  return {
    uuid,
    name,
    memberCount: 0,
    subgroupCount: 0,
    created: '2024-06-01T09:00:00.000Z',
    updated: '2024-06-02T10:30:00.000Z',
    deleted: null,
    ...overrides,
  };
}

export function membership(id: string, user: NamedRef, role: string, disabled = false): HierarchyMembership {
  const email = `${user.name.split(' ')[0]!.toLowerCase()}@example.org`;
  return { id, user: { ...user, email, disabled }, role, leaf: true };
}

/**
 * Scribes holds the subgroup Copyists and the members Ada (EDITOR) and Ben (MEMBER, disabled);
 * Copyists holds Carl. Daters is on its own.
 */
export function sampleGroups() {
  const carl = { uuid: '33333333-3333-4333-8333-333333333333', name: 'Carl Copyist' };
  const hierarchies = new Map<string, GroupHierarchy>([
    [
      SCRIBES,
      {
        uuid: SCRIBES,
        name: 'Scribes',
        subgroups: [{ id: COPYISTS, name: 'Copyists', leaf: false }],
        memberships: [membership(ADA_EDITOR, ADA, 'EDITOR'), membership(BEN_MEMBER, BEN, 'MEMBER', true)],
      },
    ],
    [COPYISTS, { uuid: COPYISTS, name: 'Copyists', subgroups: [], memberships: [membership(CARL_MEMBER, carl, 'MEMBER')] }],
    [DATERS, { uuid: DATERS, name: 'Daters', subgroups: [], memberships: [] }],
  ]);
  const groups = [
    groupFixture(COPYISTS, 'Copyists', { memberCount: 1 }),
    groupFixture(DATERS, 'Daters', { created: '2024-07-01T08:15:00.000Z', updated: '2024-07-01T08:15:00.000Z' }),
    groupFixture(SCRIBES, 'Scribes', { memberCount: 2, subgroupCount: 1 }),
  ];
  return { groups, hierarchies };
}

export type GroupStore = ReturnType<typeof sampleGroups>;

const notFound = (what: string) => jsonResponse({ error: 'not_found', message: `There is no group with id ${what}.` }, 404);

function changeHierarchy(store: GroupStore, hierarchy: GroupHierarchy, action: string, body: Record<string, string>): GroupHierarchy {
  let next = hierarchy;
  if (action === 'addmembership') {
    const user = [ADA, BEN].find((candidate) => candidate.uuid === body.userId)!;
    const id = `e0000000-0000-4000-8000-${String(100 + hierarchy.memberships.length).padStart(12, '0')}`;
    next = { ...hierarchy, memberships: [...hierarchy.memberships, membership(id, user, body.role!)] };
  } else if (action === 'removemembership') {
    next = { ...hierarchy, memberships: hierarchy.memberships.filter((m) => m.id !== body.membershipId) };
  } else if (action === 'addSubgroup') {
    const child = store.hierarchies.get(body.uuid!)!;
    next = { ...hierarchy, subgroups: [...hierarchy.subgroups, { id: child.uuid, name: child.name, leaf: false }] };
  } else if (action === 'removeSubgroup') {
    next = { ...hierarchy, subgroups: hierarchy.subgroups.filter((s) => s.id !== body.uuid) };
  }
  store.hierarchies.set(hierarchy.uuid, next);
  return next;
}

/** A signed-in admin and the groups in `store`; every call changes the store as the server would. */
export function groupServer(store: GroupStore) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED', 'ADMIN'], (url, init) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, string>) : {};
      const path = url.pathname;
      if (path === LIST_PATH && method === 'GET') return jsonResponse(store.groups);
      if (path === `${LIST_PATH}/create` && method === 'POST') {
        const created = groupFixture(NEW_GROUP, body.name!);
        store.groups.push(created);
        store.hierarchies.set(NEW_GROUP, { uuid: NEW_GROUP, name: created.name, subgroups: [], memberships: [] });
        return jsonResponse(created, 201);
      }
      if (path === '/api/pim/users/autocomplete') return jsonResponse({ results: [ADA, BEN], pageSize: 20 });
      const candidates = /^\/api\/pim\/pimgroups\/autocomplete\/([^/]+)$/.exec(path);
      if (candidates) {
        const parent = store.hierarchies.get(candidates[1]!)!;
        const results = store.groups
          .filter((group) => group.uuid !== parent.uuid && !parent.subgroups.some((s) => s.id === group.uuid))
          .map(({ uuid, name }) => ({ uuid, name }));
        return jsonResponse({ results, pageSize: 20 });
      }
      const match = /^\/api\/pim\/pimgroups\/([^/]+)(?:\/(update|membershiphierarchy|possibleroles|hierarchy\/(\w+)))?$/.exec(path);
      const hierarchy = match && store.hierarchies.get(match[1]!);
      if (!match || !hierarchy) return notFound(match?.[1] ?? path);
      const [, uuid, call, action] = match;
      if (!call && method === 'DELETE') {
        store.groups = store.groups.filter((group) => group.uuid !== uuid);
        store.hierarchies.delete(uuid!);
        return new Response(null, { status: 204 });
      }
      if (call === 'update' && method === 'POST') {
        store.hierarchies.set(uuid!, { ...hierarchy, name: body.name! });
        return jsonResponse(groupFixture(uuid!, body.name!));
      }
      if (call === 'membershiphierarchy') return jsonResponse(hierarchy);
      if (call === 'possibleroles') return jsonResponse(GROUP_ROLES_ANSWER);
      if (action && method === 'PUT') return jsonResponse(changeHierarchy(store, hierarchy, action, body));
      return notFound(path);
    }),
  );
}

