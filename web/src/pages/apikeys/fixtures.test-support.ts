import type { ApiKey } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const LIST_PATH = '/api/pim/apikey';
export const ROLES_PATH = '/api/pim/apikey/possibleroles';
export const KEY_A = 'c0000000-0000-4000-8000-00000000000a';
export const KEY_B = 'c0000000-0000-4000-8000-00000000000b';

export function apiKeyFixture(uuid: string, userName: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    uuid,
    userName,
    apiKey: `pim_${userName.slice(0, 4)}…`,
    roles: [],
    disabled: false,
    created: '2024-05-01T08:00:00.000Z',
    updated: '2024-05-01T08:00:00.000Z',
    ...overrides,
  };
}

/**
 * An admin signed in, the keys in `stored`; enable and disable change them there. `created` is the
 * answer of a POST, whole key included.
 */
export function apiKeyServer(stored: ApiKey[], created?: ApiKey) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED', 'ADMIN'], (url, init) => {
      const method = init?.method ?? 'GET';
      if (url.pathname === ROLES_PATH) return jsonResponse(['ADMIN', 'MINION']);
      if (url.pathname === LIST_PATH && method === 'GET') return jsonResponse(stored);
      if (url.pathname === LIST_PATH && method === 'POST' && created) return jsonResponse(created, 201);
      const toggle = /^\/api\/pim\/apikey\/([^/]+)\/(enable|disable)$/.exec(url.pathname);
      const index = stored.findIndex((key) => key.uuid === toggle?.[1]);
      if (toggle && method === 'PUT' && index >= 0) {
        stored[index] = { ...stored[index]!, disabled: toggle[2] === 'disable' };
        return new Response(null, { status: 204 });
      }
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}
