import type { ServerRender, ServerRenderModule, ServerRenderRequest } from '@pim/contract';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { UNSAFE_createMemoryHistory } from 'react-router';
import { configureApiClient } from './api/client';
import { prefetchSession } from './api/session';
import { App } from './app/app';
import { loadScreenCode } from './app/app-router';
import { createQueryClient } from './app/providers';
import { prefetchScreenData, rendersOnServer, routes, screenNamespaces } from './app/routes';
import { DEFAULT_NAMESPACE, i18n, type LoadTexts } from './i18n/translations';
import { setRenderOwnDataOnly } from './session/own-data';
import { setRenderToken } from './session/token-store';

/**
 * The web app's server entry (built by `vite build --ssr` into web/dist-server, loaded by
 * server/src/platform/http/server-render.ts): a screen drawn into its page for a signed-in user,
 * from the same calls the browser would make first (through the server's own `fetch`, so the API's
 * access rules and presenters decide what it shows), with the same tree main.tsx renders, so the
 * browser takes the markup over as it is.
 *
 * The app keeps its session, preferences, translations and API client in module state, as a
 * browser has one user; so pages are rendered one after another, each setting that state for its
 * user first and clearing it after. A render takes milliseconds once its calls have answered.
 */
let turn: Promise<unknown> = Promise.resolve();

export function renderScreen(request: ServerRenderRequest): Promise<ServerRender | null> {
  const result = turn.then(() => render(request));
  turn = result.catch(() => undefined);
  return result;
}

export { rendersOnServer };

async function render(request: ServerRenderRequest): Promise<ServerRender | null> {
  const { url, config, token, language, onlyOwnData } = request;
  const pathname = new URL(url, 'http://server.invalid').pathname;
  if (!rendersOnServer(pathname)) return null;
  configureApiClient(config, request.fetch);
  setRenderToken(token);
  setRenderOwnDataOnly(onlyOwnData);
  // The build's own translation files, which the server reads for it.
  i18n.start(language, request.texts as LoadTexts);
  try {
    const queryClient = createQueryClient();
    prefetchSession(queryClient, token);
    prefetchScreenData(pathname, queryClient);
    // The screen's texts in this page's language: its code, loaded once, asked for them in the first page's.
    const ready = Promise.all([i18n.loadNamespaces([DEFAULT_NAMESPACE, ...screenNamespaces(pathname)]), loadScreenCode(routes, pathname), settled(queryClient)]);
    if (!(await withinTime(ready, request.timeLimitMs))) return null;
    // A call that failed (a session the server refused, a set gone): the browser draws the screen and says why.
    if (queryClient.getQueryCache().getAll().some((query) => query.state.status !== 'success')) return null;
    const history = UNSAFE_createMemoryHistory({ initialEntries: [url], v5Compat: true });
    const html = renderToString(<App config={config} queryClient={queryClient} history={history} />);
    return { html, state: { url, token, language, onlyOwnData, queries: dehydrate(queryClient) } };
  } finally {
    setRenderToken(null);
    setRenderOwnDataOnly(undefined);
    configureApiClient(config);
  }
}

/** Whether `work` settled within `ms`. */
function withinTime(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** Settles once no call of the client is on its way. */
function settled(queryClient: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = queryClient.getQueryCache().subscribe(check);
    check();
  });
}

// The module as the server expects it: checked here, where it is built.
({ renderScreen, rendersOnServer }) satisfies ServerRenderModule;
