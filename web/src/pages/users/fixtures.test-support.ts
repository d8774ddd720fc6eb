import type { NamedRef, User } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, stubFetch, testUser } from '../../test/render';

export const ADA = '11111111-1111-4111-8111-111111111111';
export const BEN = '22222222-2222-4222-8222-222222222222';
export const SCRIBES: NamedRef = { uuid: 'a0000000-0000-4000-8000-000000000001', name: 'Scribes' };
export const DATERS: NamedRef = { uuid: 'a0000000-0000-4000-8000-000000000002', name: 'Daters' };
export const userPath = (id: string) => `/api/pim/users/${id}`;

/** A user as the server presents it. */
export function userFixture(overrides: Partial<User> = {}): User {
  return testUser({ roles: [], ...overrides }) as User;
}

export const ada = (overrides: Partial<User> = {}) =>
  userFixture({ uuid: ADA, name: 'Ada Researcher', email: 'ada@example.org', persistentId: 'ada-sub', pimGroups: [SCRIBES, DATERS], primaryGroup: SCRIBES, ...overrides });
export const ben = (overrides: Partial<User> = {}) =>
  userFixture({
    uuid: BEN,
    name: 'Ben Archivist',
    email: 'ben@example.org',
    pimGroups: [DATERS],
    created: '2024-02-03T09:15:00.000Z',
    updated: '2024-04-05T16:45:30.000Z',
    ...overrides,
  });

const notFound = () => jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
const forbidden = () => jsonResponse({ error: 'forbidden', message: 'Only administrators may do this.' }, 403);

/**
 * The server as far as these screens use it: signed in as `users[0]` with `roles`, which decide
 * what the caller may see, as the contract describes it. An update stores what the form sent.
 */
export function userServer(users: User[], roles: string[] = ['AUTHENTICATED']) {
  setToken('tok');
  const stored = new Map(users.map((user) => [user.uuid, user]));
  const self = users[0]!.uuid;
  const admin = roles.includes('ADMIN');
  return stubFetch((url, init) => {
    const method = init?.method ?? 'GET';
    const path = url.pathname;
    if (path === '/api/google/getRoles') return jsonResponse(roles);
    if (path === '/api/pim/users/possibleroles') return jsonResponse(['ADMIN']);
    if (path === '/api/pim/users') return admin ? jsonResponse([...stored.values()]) : forbidden();
    const match = /^\/api\/pim\/users\/([^/]+)(?:\/(update|enable|disable))?$/.exec(path);
    if (!match) return notFound();
    const uuid = match[1] === 'self' ? self : match[1]!;
    const user = stored.get(uuid);
    if (!user) return notFound();
    if (uuid !== self && !admin) return forbidden();
    if (method === 'POST' && match[2] === 'update') {
      const body = JSON.parse(String(init?.body)) as User;
      stored.set(uuid, { ...user, name: body.name, avatar: body.avatar, roles: body.roles, primaryGroup: body.primaryGroup });
      return jsonResponse(stored.get(uuid));
    }
    if (method === 'PUT' && (match[2] === 'enable' || match[2] === 'disable')) {
      stored.set(uuid, { ...user, disabled: match[2] === 'disable' });
      return new Response(null, { status: 204 });
    }
    return method === 'GET' && !match[2] ? jsonResponse(user) : notFound();
  });
}

/** The requests sent with `method` to `path`: their JSON bodies, in order. */
export function sent(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}
