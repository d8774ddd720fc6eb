import type { Configuration } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const MAIL = 'c0000000-0000-4000-8000-000000000001';
export const THEME = 'c0000000-0000-4000-8000-000000000002';
export const NEW_CONFIGURATION = 'c0000000-0000-4000-8000-000000000003';
export const LIST_PATH = '/api/pim/configuration/index';
export const CREATE_PATH = '/api/pim/configuration/create';
export const configurationPath = (id: string) => `/api/pim/configuration/${id}`;

export const sampleConfigurations = (): Configuration[] => [
  { id: 1, uuid: MAIL, key: 'mail.host', value: 'smtp.example.org' },
  { id: 2, uuid: THEME, key: 'theme', value: 'x'.repeat(200) },
];

const taken = (key: string) =>
  jsonResponse({ error: 'conflict', message: `A configuration with the key "${key}" already exists: edit that one or choose another key.` }, 409);

/** A signed-in admin and the configurations in `store`; every call changes the store as the server would. */
export function configurationServer(store: Configuration[]) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED', 'ADMIN'], (url, init) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { key: string; value: string }) : { key: '', value: '' };
      if (url.pathname === LIST_PATH) return jsonResponse(store);
      if (url.pathname === CREATE_PATH && method === 'POST') {
        if (store.some((c) => c.key === body.key)) return taken(body.key);
        const created = { id: 3, uuid: NEW_CONFIGURATION, key: body.key, value: body.value };
        store.push(created);
        return jsonResponse(created);
      }
      const id = url.pathname.slice(configurationPath('').length);
      const index = store.findIndex((c) => c.uuid === id);
      if (index < 0) return jsonResponse({ error: 'not_found', message: `There is no configuration with id ${id}.` }, 404);
      if (method === 'DELETE') {
        store.splice(index, 1);
        return new Response(null, { status: 204 });
      }
      if (method === 'PUT') {
        if (store.some((c) => c.key === body.key && c.uuid !== id)) return taken(body.key);
        store[index] = { ...store[index]!, ...body };
      }
      return jsonResponse(store[index]);
    }),
  );
}
