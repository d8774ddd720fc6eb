import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { Link, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { DEFAULT_APP_CONFIG } from '../session/app-config';
import { setToken } from '../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, renderRoutes, stubFetch } from '../test/render';
import { prefetchScreenData, routes, screen as screenRoute, withShell, type ScreenHandle } from './routes';

function Broken(): never {
  throw new Error('the drawing canvas exploded');
}

/** A screen at `path` whose code arrives when the test says so. */
function screenCode(path: string) {
  let arrive!: (Component: ComponentType) => void;
  const loaded = new Promise<{ Component: ComponentType }>((resolve) => {
    arrive = (Component) => resolve({ Component });
  });
  return { route: screenRoute(path, () => loaded, (m) => m.Component), arrive };
}

/** React and the error boundary log a failing screen; that is expected where a test makes one fail. */
function quietErrors() {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}

describe('route table', () => {
  it.each(['/nonexistent', '/imagesets/extra', '/pimuser/other', '/Imagesets2'])('shows not-found for %s', (path) => {
    renderApp(path);
    expect(screen.getByText('Sorry, page not found!')).toBeTruthy();
  });

  it('shows the settings placeholder', async () => {
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the change log of this release', async () => {
    renderApp('/changelog');
    expect(await screen.findByRole('heading', { name: 'Roadmap/Change log' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Coming next' })).toBeTruthy();
  });

  it('prompts a signed-out visitor of the start page to log in', async () => {
    renderApp('/');
    expect(await screen.findByText('Log in to see your image sets.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Google login' })).toBeTruthy();
  });

  it('shows a render failure as Something went wrong: "{message}", below the nav bar', () => {
    quietErrors();
    renderRoutes(withShell([{ path: '*', element: <Broken /> }]), '/');
    expect(screen.getByText('Something went wrong: "the drawing canvas exploded"')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'PIM home' })).toBeTruthy();
  });

  it('tries a failed screen again at the next navigation', async () => {
    quietErrors();
    renderRoutes(withShell([{ path: 'broken', element: <Broken /> }, { index: true, element: <p>The start page</p> }]), '/broken');
    expect(screen.getByText('Something went wrong: "the drawing canvas exploded"')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'PIM home' }));
    expect(await screen.findByText('The start page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('loads the code of every built screen on demand: only not-found comes with the shell', () => {
    const screens: RouteObject[] = routes[0]!.children!;
    const eager = screens.filter((route) => !(route.handle as ScreenHandle | undefined)?.load).map((route) => (route.index ? '' : route.path));
    expect(eager).toEqual(['*']);
  });

  it("shows the shell at once on the first load, with a spinner until the screen's code arrives", async () => {
    const code = screenCode('*');
    renderRoutes(withShell([code.route]), '/');
    expect(await screen.findByRole('link', { name: 'PIM home' })).toBeTruthy();
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    code.arrive(() => <p>The screen</p>);
    expect(await screen.findByText('The screen')).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
  });

  it('renders a screen whose code is in at once, with no spinner (the first load waits for the code, main.tsx)', async () => {
    const code = screenCode('*');
    const arrived = (code.route.handle as ScreenHandle).load();
    code.arrive(() => <p>The screen</p>);
    await arrived;
    expect((code.route.handle as ScreenHandle).load()).toBeNull();
    renderRoutes(withShell([code.route]), '/');
    expect(screen.getByText('The screen')).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
  });

  it("keeps the screen shown, and says the next one is opening, until the next screen's code arrives", async () => {
    const code = screenCode('second');
    renderRoutes(withShell([{ path: 'first', element: <Link to="/second">Next</Link> }, code.route]), '/first');
    await userEvent.click(await screen.findByRole('link', { name: 'Next' }));
    expect(await screen.findByLabelText('Opening the screen')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Next' })).toBeTruthy();
    code.arrive(() => <p>The second screen</p>);
    expect(await screen.findByText('The second screen')).toBeTruthy();
    expect(screen.queryByLabelText('Opening the screen')).toBeNull();
  });

  it('catches a failure of a lazily loaded screen below the nav bar', async () => {
    quietErrors();
    renderRoutes(withShell([screenRoute('*', async () => ({ Broken }), (m) => m.Broken)]), '/');
    expect(await screen.findByText('Something went wrong: "the drawing canvas exploded"')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'PIM home' })).toBeTruthy();
  });

  it("offers a reload when the browser cannot fetch a screen's code", async () => {
    quietErrors();
    const failure = new TypeError('Failed to fetch dynamically imported module: http://localhost/pim/assets/image-sets-page-B4x9.js');
    renderRoutes(withShell([screenRoute('*', () => Promise.reject<{ Broken: ComponentType }>(failure), (m) => m.Broken)]), '/');
    expect(await screen.findByText('Something went wrong: "This screen could not be loaded"')).toBeTruthy();
    expect(screen.getByText(/PIM may have been updated since this page was opened/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'PIM home' })).toBeTruthy();
  });
});

describe("a screen's data at the first load", () => {
  it('asks for the image sets, as the list will (own data only or not), at a first load of their screen', async () => {
    configureApiClient(DEFAULT_APP_CONFIG);
    setToken('tok-1');
    localStorage.setItem('onlyOwnData', 'true');
    const fetchMock = stubFetch(() => jsonResponse([]));
    prefetchScreenData('/pim/imagesets', new QueryClient());
    await waitFor(() => expect(fetchedUrls(fetchMock)).toEqual(['/api/pim/documentimageset?onlyOwnData=true']));
  });

  it('asks for nothing signed out, nor for a screen that names no data of its own', async () => {
    configureApiClient(DEFAULT_APP_CONFIG);
    const fetchMock = stubFetch(() => jsonResponse([]));
    prefetchScreenData('/pim/imagesets', new QueryClient());
    setToken('tok-1');
    prefetchScreenData('/pim/changelog', new QueryClient());
    prefetchScreenData('/pim/', new QueryClient());
    // The one call: had any of the above asked, its call would have come first.
    prefetchScreenData('/pim/imagesets', new QueryClient());
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchedUrls(fetchMock)).toEqual(['/api/pim/documentimageset?onlyOwnData=false']);
  });
});
