import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { UNSAFE_createMemoryHistory, type Location, type NavigationType, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { AppRouter } from '../app/app-router';
import { createQueryClient, Providers } from '../app/providers';
import { routes } from '../app/routes';
import { BASENAME, DEFAULT_APP_CONFIG } from '../session/app-config';

/** What a test reads of the router: the address (a full path, /pim/...) and how it was reached. */
export interface TestRouter {
  readonly state: { location: Location; historyAction: NavigationType };
  /**
   * Goes to a path inside /pim, as a link would, or back and forth in the history; async, so
   * `await act(...)` around it waits as an async act.
   */
  navigate: (to: string | number) => Promise<void>;
}

/** Any route list, with the app's providers and router, at `path` inside /pim. */
export function renderRoutes(routeList: RouteObject[], path: string) {
  configureApiClient(DEFAULT_APP_CONFIG);
  const history = UNSAFE_createMemoryHistory({ initialEntries: [BASENAME + path], v5Compat: true });
  const router: TestRouter = {
    get state() {
      return { location: history.location, historyAction: history.action };
    },
    navigate: async (to) => (typeof to === 'number' ? history.go(to) : history.push(BASENAME + to)),
  };
  const view = render(
    <Providers config={DEFAULT_APP_CONFIG} queryClient={createQueryClient()} env="test">
      <AppRouter history={history} routes={routeList} />
    </Providers>,
  );
  return { ...view, router };
}

/** The whole app (shell and route table) at `path`, a path inside /pim such as '/imagesets'. */
export function renderApp(path = '/') {
  return renderRoutes(routes, path);
}

/** One component on a page at `path`, with the app's providers and a router for its URL state. */
export function renderPage(element: ReactNode, path = '/') {
  return renderRoutes([{ path: '*', element }], path);
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** Stubs the browser's fetch, the app's boundary to the server. Unknown calls answer 404. */
export function stubFetch(handler: Handler) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs (path and query) fetched so far. */
export function fetchedUrls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://localhost');
    return url.pathname + url.search;
  });
}

/** A signed-in session: the token in storage and the two calls the session makes. */
export function signedInHandler(roles: string[], rest: Handler = () => jsonResponse({ error: 'not_found', message: 'Not found' }, 404)): Handler {
  return (url, init) => {
    if (url.pathname === '/api/google/getRoles') return jsonResponse(roles);
    if (url.pathname === '/api/pim/users/self') return jsonResponse(testUser({ roles }));
    if (init?.method === 'DELETE' && url.pathname.startsWith('/api/google/')) return new Response(null, { status: 204 });
    return rest(url, init);
  };
}

export function testUser(overrides: Record<string, unknown> = {}) {
  return {
    uuid: '11111111-1111-4111-8111-111111111111',
    name: 'Ada Researcher',
    email: 'ada@example.org',
    persistentId: null,
    googleId: null,
    roles: ['AUTHENTICATED'],
    avatar: null,
    pimGroups: [],
    primaryGroup: null,
    disabled: false,
    created: '2024-01-01T00:00:00.000Z',
    updated: '2024-01-01T00:00:00.000Z',
    deleted: null,
    ...overrides,
  };
}
