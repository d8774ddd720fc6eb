import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import type { AppConfig } from '@pim/contract';
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { configureApiClient } from './api/client';
import { prefetchSession } from './api/session';
import { App } from './app/app';
import { loadScreenCode } from './app/app-router';
import { initI18n } from './app/i18n';
import { applyLanding } from './app/landing';
import { serverRenderedState, syncPageCookies } from './app/page-render';
import { createQueryClient } from './app/providers';
import { prefetchScreenData, routes } from './app/routes';
import { registerServiceWorker } from './app/service-worker-registration';
import { loadAppConfig } from './session/app-config';
import { getToken } from './session/token-store';

/**
 * Everything the first screen needs is asked for at once, the data first. The configuration is in
 * the page (where it is not, app-config.json is asked for beside the code), so the session's roles,
 * the user's own record and the data the screen opens with go out at once, not queued behind a
 * dozen chunks on the browser's six connections; then the translations and the screen's code and
 * texts (`loadScreenCode`), which the page served by the server has asked for already
 * (server/src/platform/http/web-app.ts), so these find them on their way. The first render waits
 * for the screen's code too: the shell and the screen then render and lay out once, together,
 * rather than the shell first and the screen (a second render, a second layout of the page) behind
 * a Suspense fallback, which React keeps for at least 300 ms.
 *
 * Where the server drew the screen into the page for this very browser's state (app/page-render.ts),
 * the app starts with the answers it was drawn from, so it asks for none of them again, and takes
 * the markup over as it is (hydration) instead of drawing it anew.
 */
/** The performance mark of the moment the app answers the page: drawn by it, or taken over. */
const APP_SHOWN_MARK = 'pim-app-shown';

async function start(): Promise<void> {
  // Before the router reads the address: take the token and follow `redirect`.
  applyLanding();
  syncPageCookies();
  const history = UNSAFE_createBrowserHistory({ v5Compat: true });
  const queryClient = createQueryClient();
  const rendered = serverRenderedState();
  // The query cache as the server's render left it (server-render.tsx dehydrates it).
  if (rendered) hydrate(queryClient, rendered.queries as DehydratedState);
  const startCalls = (config: AppConfig) => {
    configureApiClient(config);
    prefetchSession(queryClient, getToken());
    prefetchScreenData(window.location.pathname, queryClient);
    return config;
  };
  const inPage = loadAppConfig();
  const configured = inPage instanceof Promise ? inPage.then(startCalls) : startCalls(inPage);
  // The translations start first: the screen's are asked for with its code.
  const i18nReady = initI18n();
  const screenCode = loadScreenCode(routes, history.location.pathname);
  const [config] = await Promise.all([configured, i18nReady, screenCode]);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  // The page's markup is inert until the app answers it (server/src/platform/http/web-app.ts); the
  // mark is when it does (bench/web.mjs reads it).
  const shown = () => {
    root.removeAttribute('inert');
    performance.mark(APP_SHOWN_MARK);
  };
  const app = <App config={config} queryClient={queryClient} history={history} onShown={shown} />;
  if (rendered) hydrateRoot(root, app);
  else {
    // Markup drawn for another state, if any, is not taken over.
    root.replaceChildren();
    createRoot(root).render(app);
  }
  void registerServiceWorker();
}

void start();
