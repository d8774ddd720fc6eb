import { createContext, startTransition, use, useLayoutEffect, useState, useTransition } from 'react';
import { matchRoutes, Router, useRoutes, type RouteObject, type UNSAFE_createBrowserHistory } from 'react-router';
import { BASENAME } from '../session/app-config';
import type { ScreenHandle } from './routes';

/** The browser's history, or in tests a memory one (React Router's `UNSAFE_create*History`, `v5Compat`). */
export type AppHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

const ScreenPending = createContext(false);

/** Whether the screen being opened still waits for its code; the screen before it stays meanwhile. */
export function useScreenPending(): boolean {
  return use(ScreenPending);
}

/**
 * Starts fetching the code of the screen at `pathname` (a full path, /pim/...); while it is on its
 * way, the promise of its arrival (settled either way), else null.
 */
export function loadScreenCode(routes: RouteObject[], pathname: string): Promise<void> | null {
  const waiting = (matchRoutes(routes, pathname, BASENAME) ?? []).flatMap(({ route }) => (route.handle as ScreenHandle | undefined)?.load() ?? []);
  return waiting.length ? Promise.all(waiting).then(() => {}) : null;
}

function RouteTree({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * React Router's declarative router over `history` (its data router, which loads a route's code
 * before it shows the route, is twice the size). Every location change is a transition, so a
 * screen whose code has not arrived suspends it and React keeps the screen shown until then
 * (app/layout.tsx's Suspense shows its spinner only at the first load); such a transition is the
 * nav bar's "opening the screen". The others are not tracked, so the nav bar's loader does not
 * flash at every change of the address.
 */
export function AppRouter({ history, routes }: { history: AppHistory; routes: RouteObject[] }) {
  const [{ action, location }, setShown] = useState({ action: history.action, location: history.location });
  const [screenPending, startScreenTransition] = useTransition();
  useLayoutEffect(
    () =>
      history.listen((update) => {
        const open = loadScreenCode(routes, update.location.pathname) !== null ? startScreenTransition : startTransition;
        open(() => setShown({ action: update.action, location: update.location }));
      }),
    [history, routes],
  );
  return (
    <ScreenPending value={screenPending}>
      <Router basename={BASENAME} location={location} navigationType={action} navigator={history}>
        <RouteTree routes={routes} />
      </Router>
    </ScreenPending>
  );
}
