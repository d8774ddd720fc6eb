import { setToken } from '../../session/token-store';
import { imageSetFixture } from '../../test/factories';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const ROOT = '22222222-2222-4222-8222-222222222222';
export const QUIRE = '33333333-3333-4333-8333-333333333333';
export const OTHER_SET = '44444444-4444-4444-8444-444444444444';
export const PAGE_1 = '55555555-5555-4555-8555-555555555555';
export const PAGE_2 = '66666666-6666-4666-8666-666666666666';
export const GROUP = '77777777-7777-4777-8777-777777777777';

export function imageSet(uuid: string, name: string) {
  return imageSetFixture(uuid, name);
}

export const hierarchies: Record<string, unknown> = {
  [ROOT]: { imageset: { id: ROOT, name: 'Psalter' }, subsets: [{ id: QUIRE, name: 'Quire 1' }], images: [{ id: PAGE_1, name: 'page 1' }] },
  [QUIRE]: { imageset: { id: QUIRE, name: 'Quire 1' }, subsets: [], images: [{ id: PAGE_2, name: 'page 2' }] },
};

type Rest = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** A signed-in user with the set Psalter holding the sub-set Quire 1 and page 1. */
export function imageSetServer(rest: Rest = () => undefined) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url, init) => {
      const answer = rest(url, init);
      if (answer) return answer;
      const hierarchy = /^\/api\/pim\/documentimageset\/([^/]+)\/hierarchy$/.exec(url.pathname);
      if (hierarchy?.[1]) return jsonResponse(hierarchies[hierarchy[1]]);
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse(imageSet(ROOT, 'Psalter'));
      if (url.pathname === '/api/pim/documentimageset/autocomplete') {
        return jsonResponse({ results: [{ uuid: OTHER_SET, name: 'Book of hours' }], pageSize: 20 });
      }
      if (url.pathname === '/api/pim/documentimage/autocomplete') {
        return jsonResponse({ results: [{ uuid: PAGE_2, name: 'page 2' }], pageSize: 20 });
      }
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

export function callsTo(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => new URL(String(input), 'http://localhost').pathname === path && (init?.method ?? 'GET') === method,
  );
}
