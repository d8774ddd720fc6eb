import { ENVIRONMENT_SWITCHES, type Environment } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const LETTERS_ENV = 'e1000000-0000-4000-8000-000000000001';
export const CHARTERS_ENV = 'e1000000-0000-4000-8000-000000000002';
export const NEW_ENV = 'e1000000-0000-4000-8000-000000000003';
export const LETTERS_INDEX = { uuid: 'd0000000-0000-4000-8000-000000000001', name: 'letters' };
export const CHARTERS_INDEX = { uuid: 'd0000000-0000-4000-8000-000000000002', name: 'charters' };
export const LIST_PATH = '/api/pim/environment';
export const environmentPath = (uuid: string) => `/api/pim/environment/${uuid}`;
export const APACHE_CONFIG = '<VirtualHost *:80>\n    ServerName search.example.org\n</VirtualHost>\n';

export function environmentFixture(uuid: string, title: string, overrides: Partial<Environment> = {}): Environment {
  return {
    uuid,
    title,
    elasticSearchIndex: null,
    path: title.toLowerCase(),
    address: '',
    domain: '',
    generateApacheConfig: '# Set the address of the environment.\n',
    about: '',
    mainText: '',
    searchLabel: '',
    logoClass: '',
    topBarClasses: '',
    instructions: '',
    ...(Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, false])) as Record<(typeof ENVIRONMENT_SWITCHES)[number], boolean>),
    ...overrides,
  };
}

export const sampleEnvironments = (): Environment[] => [
  environmentFixture(CHARTERS_ENV, 'Charters'),
  environmentFixture(LETTERS_ENV, 'Letters', {
    elasticSearchIndex: LETTERS_INDEX,
    address: 'https://search.example.org',
    domain: 'search.example.org',
    generateApacheConfig: APACHE_CONFIG,
    about: 'About the letters',
    persons: true,
  }),
];

/** A signed-in admin and the environments in `store`; saves change the store as the server would. */
export function environmentServer(store: Environment[]) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED', 'ADMIN'], (url, init) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Environment & { elasticSearchIndex: { uuid: string } | null }) : null;
      const saved = (uuid: string) => {
        const index = [LETTERS_INDEX, CHARTERS_INDEX].find((i) => i.uuid === body!.elasticSearchIndex?.uuid) ?? null;
        return environmentFixture(uuid, body!.title, { ...body!, uuid, elasticSearchIndex: index, domain: '', generateApacheConfig: '' });
      };
      if (url.pathname === '/api/pim/elasticsearchindex/autocomplete') return jsonResponse({ results: [CHARTERS_INDEX, LETTERS_INDEX], pageSize: 20 });
      const pathTaken = (uuid: string) =>
        store.some((e) => e.path === body!.path && e.uuid !== uuid) &&
        jsonResponse({ error: 'conflict', message: `An environment with the path "${body!.path}" already exists: choose another path.` }, 409);
      if (url.pathname === LIST_PATH && method === 'POST') {
        const refused = pathTaken(NEW_ENV);
        if (refused) return refused;
        store.push(saved(NEW_ENV));
        return jsonResponse(store.at(-1));
      }
      if (url.pathname === LIST_PATH) return jsonResponse(store);
      const uuid = url.pathname.slice(environmentPath('').length);
      const index = store.findIndex((e) => e.uuid === uuid);
      if (index < 0) return jsonResponse({ error: 'not_found', message: `There is no environment with id ${uuid}.` }, 404);
      if (method === 'PUT') {
        const refused = pathTaken(uuid);
        if (refused) return refused;
        store[index] = saved(uuid);
      }
      return jsonResponse(store[index]);
    }),
  );
}
