import { screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RELEASE, ROADMAP } from '../pages/changelog/changelog-entries';
import { LANDING_AREAS } from '../pages/landing/landing-page';
import { setToken } from '../session/token-store';
import { renderApp, signedInHandler, stubFetch } from '../test/render';
import { routes } from './routes';

/** Every path of the route table under /pim/ ('' for the start page), the fallback left out. */
function routePaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.index ? [''] : route.path && route.path !== '*' ? [route.path] : []),
    ...routePaths(route.children ?? []),
  ]);
}

const built = routePaths(routes);

describe('the change log and the start page stay true to the route table', () => {
  it('names every screen of the route table under "This version"', () => {
    const named = RELEASE.flatMap((entry) => entry.screens);
    expect([...named].sort()).toEqual([...built].sort());
  });

  it('names no screen under "Coming next": every screen of the route table is built', () => {
    expect(ROADMAP.flatMap((entry) => entry.screens)).toEqual([]);
    expect(ROADMAP.length).toBeGreaterThan(0);
  });

  it('shows a sentence for every entry', async () => {
    renderApp('/changelog');
    await screen.findByRole('heading', { name: 'Roadmap/Change log' });
    const items = screen.getAllByRole('listitem').map((item) => item.textContent ?? '');
    expect(items).toHaveLength(RELEASE.length + ROADMAP.length);
    expect(items.filter((text) => text.startsWith('changelog.'))).toEqual([]);
    expect(items.some((text) => text.startsWith('Models of all eight kinds'))).toBe(true);
  });

  it('sends a signed-in user from the start page only to built screens', async () => {
    setToken('tok');
    stubFetch(signedInHandler(['AUTHENTICATED']));
    renderApp('/');
    const main = await screen.findByText(/Where would you like to start/);
    const links = within(main.parentElement as HTMLElement).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(LANDING_AREAS.map((area) => `/pim${area.to}`));
    for (const area of LANDING_AREAS) expect(built).toContain(area.to.slice(1));
  });
});
