import { MODEL_KIND_INFO, type Model, type ModelKind } from '@pim/contract';
import { afterEach, beforeEach, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const MODEL_A = 'd0000000-0000-4000-8000-00000000000a';
export const MODEL_B = 'd0000000-0000-4000-8000-00000000000b';
export const OWNER = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Ada Researcher' };

export const apiPath = (kind: ModelKind) => `/api/${MODEL_KIND_INFO[kind].basePath}`;

export function modelFixture(kind: ModelKind, uuid: string, label: string, overrides: Partial<Model> = {}): Model {
  return {
    uuid,
    kind,
    label,
    language: null,
    publicModel: false,
    owner: OWNER,
    fileName: `${label}.zip`,
    size: 1_500_000,
    properties: {},
    created: '2024-05-01T08:00:00.000Z',
    updated: '2024-05-01T08:00:00.000Z',
    ...overrides,
  };
}

export const LANGUAGES = [
  { code: 'nld', name: 'Dutch' },
  { code: 'lat', name: 'Latin' },
];

const notFound = () => jsonResponse({ error: 'not_found', message: 'Not found' }, 404);

/**
 * An admin signed in and the models of one kind in `stored`: the list (Laypa's paged), one model,
 * delete, make public/private and the binary, as the contract describes them.
 */
/** An admin by default; `roles` makes another caller (the server then answers as for an admin: the screens must not offer what fails). */
export function modelServer(kind: ModelKind, stored: Model[], roles = ['AUTHENTICATED', 'ADMIN']) {
  setToken('tok');
  const info = MODEL_KIND_INFO[kind];
  const base = apiPath(kind);
  return stubFetch(
    signedInHandler(roles, (url, init) => {
      const method = init?.method ?? 'GET';
      if (url.pathname === '/api/pim/language/autocomplete') {
        const term = (url.searchParams.get('filter') ?? '').toLowerCase();
        return jsonResponse({ results: LANGUAGES.filter((language) => language.name.toLowerCase().includes(term)), pageSize: 10 });
      }
      if (url.pathname === `/api/${info.listPath}` && method === 'GET') {
        if (kind !== 'laypa') return jsonResponse(stored);
        const page = Number(url.searchParams.get('page'));
        const pageSize = Number(url.searchParams.get('pageSize'));
        return jsonResponse({ results: stored.slice(page * pageSize, (page + 1) * pageSize), total: stored.length, pageSize });
      }
      const match = new RegExp(`^${base}/([^/]+)(?:/(binary|makepublic|makeprivate))?$`).exec(url.pathname);
      const index = stored.findIndex((model) => model.uuid === match?.[1]);
      if (!match || index < 0) return notFound();
      const [, , action] = match;
      if (!action && method === 'GET') return jsonResponse(stored[index]);
      if (!action && method === 'DELETE') {
        stored.splice(index, 1);
        return new Response(null, { status: 204 });
      }
      if (action === 'binary') return new Response(new Blob(['PK']));
      if (method === 'PUT') {
        stored[index] = { ...stored[index]!, publicModel: action === 'makepublic' };
        return new Response(null, { status: 204 });
      }
      return notFound();
    }),
  );
}

/** The calls made, as "METHOD /path?query", leaving out the session's own. */
export function calls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls
    .map(([input, init]) => {
      const url = new URL(String(input), 'http://localhost');
      return `${init?.method ?? 'GET'} ${url.pathname}${url.search}`;
    })
    .filter((call) => call.includes('/api/pim/') && !call.includes('/users/self'));
}

/** The files the browser was asked to save, by name. */
export function captureDownloads(): { saved: string[] } {
  const record = { saved: [] as string[] };
  beforeEach(() => {
    record.saved.length = 0;
    // jsdom has no object URLs; these stand in for the browser's.
    URL.createObjectURL = vi.fn(() => 'blob:test/1');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      record.saved.push(this.download);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });
  return record;
}
