import type { FontDescription } from '@pim/contract';
import enFonts from '../../../public/locales/en/fonts.json';
import { i18n } from '../../i18n/translations';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

// The app loads this namespace over HTTP on first use; the tests bundle the real English texts.
i18n.addResourceBundle('en', 'fonts', enFonts);

export const LIST_PATH = '/api/pim/fontdescription';
export const JUNICODE = 'f0000000-0000-4000-8000-00000000000a';
export const FRAKTUR = 'f0000000-0000-4000-8000-00000000000b';
export const fontPath = (uuid: string) => `${LIST_PATH}/${uuid}`;

export function fontFixture(uuid: string, name: string, overrides: Partial<FontDescription> = {}): FontDescription {
  return {
    uuid,
    uri: `https://fonts.example.org/${name.toLowerCase().replace(/\s+/g, '-')}`,
    name,
    type: 'TrueType',
    license: 'OFL 1.1',
    handwritten: false,
    containsLongS: true,
    containsLigatures: true,
    romanScript: true,
    serif: true,
    hasData: true,
    fileName: `${name}.ttf`,
    sizeBytes: 1234,
    created: '2024-05-01T08:00:00.000Z',
    updated: '2024-05-02T09:30:00.000Z',
    ...overrides,
  };
}

export const sampleFonts = () => [
  fontFixture(JUNICODE, 'Junicode'),
  fontFixture(FRAKTUR, 'UnifrakturMaguntia', { type: 'OpenType', handwritten: true, serif: false, license: '' }),
];

/** The request bodies of one kind sent so far: JSON parsed, FormData as its [name, value] pairs. */
export function bodiesSent(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => {
      const body = init?.body;
      if (body instanceof FormData) return [...body.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]);
      return typeof body === 'string' ? JSON.parse(body) : undefined;
    });
}

/** A signed-in user with the given roles (an admin unless told), the fonts in `stored`; writes change them there. */
export function fontServer(stored: FontDescription[], options: { roles?: string[]; created?: FontDescription } = {}) {
  setToken('tok');
  return stubFetch(
    signedInHandler(options.roles ?? ['AUTHENTICATED', 'ADMIN'], async (url, init) => {
      const method = init?.method ?? 'GET';
      const path = url.pathname.replace(/\/$/, '');
      if (path === LIST_PATH && method === 'GET') return jsonResponse(stored);
      if (path === LIST_PATH && method === 'POST' && options.created) {
        stored.push(options.created);
        return jsonResponse(options.created, 201);
      }
      const one = /^\/api\/pim\/fontdescription\/([^/]+)(\/binary)?$/.exec(path);
      const index = stored.findIndex((font) => font.uuid === one?.[1]);
      if (one && index >= 0) {
        if (one[2]) return new Response(new Blob(['\0\x01\0\0font bytes']), { headers: { 'Content-Type': 'font/ttf' } });
        if (method === 'GET') return jsonResponse(stored[index]);
        if (method === 'PUT') {
          stored[index] = { ...stored[index]!, ...(JSON.parse(String(init?.body)) as Partial<FontDescription>) };
          return jsonResponse(stored[index]);
        }
        if (method === 'DELETE') {
          stored.splice(index, 1);
          return new Response(null, { status: 204 });
        }
      }
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}
