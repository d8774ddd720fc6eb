import type { NamedRef, SearchIndex } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const LETTERS = 'd0000000-0000-4000-8000-000000000001';
export const CHARTERS = 'd0000000-0000-4000-8000-000000000002';
export const NEW_INDEX = 'd0000000-0000-4000-8000-000000000003';
export const LIST_PATH = '/api/pim/elasticsearchindex';
export const indexPath = (uuid: string) => `/api/pim/elasticsearchindex/${uuid}`;
export const LETTER_SETS: NamedRef[] = [
  { uuid: 'a0000000-0000-4000-8000-000000000001', name: 'Letters 1850' },
  { uuid: 'a0000000-0000-4000-8000-000000000002', name: 'Letters 1851' },
];

export const sampleIndices = (): SearchIndex[] => [
  { uuid: CHARTERS, name: 'charters' },
  { uuid: LETTERS, name: 'letters' },
];

/** A signed-in admin (unless `roles` says otherwise) and the indices in `store`; creates and renames change the store as the server would. */
export function searchIndexServer(store: SearchIndex[], roles = ['AUTHENTICATED', 'ADMIN']) {
  setToken('tok');
  return stubFetch(
    signedInHandler(roles, (url, init) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { name: string }) : { name: '' };
      const taken = () => jsonResponse({ error: 'conflict', message: `A search index named "${body.name}" already exists: choose another name.` }, 409);
      if (url.pathname === LIST_PATH && method === 'POST') {
        if (store.some((i) => i.name === body.name)) return taken();
        store.push({ uuid: NEW_INDEX, name: body.name });
        return jsonResponse({ uuid: NEW_INDEX, name: body.name });
      }
      if (url.pathname === LIST_PATH) return jsonResponse(store);
      const match = /^\/api\/pim\/elasticsearchindex\/([^/]+)(\/documentimagesets)?$/.exec(url.pathname);
      const index = store.find((i) => i.uuid === match?.[1]);
      if (!index) return jsonResponse({ error: 'not_found', message: `There is no search index with id ${match?.[1]}.` }, 404);
      if (match?.[2]) return jsonResponse(index.uuid === LETTERS ? LETTER_SETS : []);
      if (method === 'PUT') {
        if (store.some((i) => i.name === body.name && i.uuid !== index.uuid)) return taken();
        index.name = body.name;
      }
      return jsonResponse(index);
    }),
  );
}
