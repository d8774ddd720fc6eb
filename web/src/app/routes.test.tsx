import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UNAVAILABLE_SCREENS } from '../pages/unavailable/unavailable-screens';
import { renderApp, renderRoutes } from '../test/render';
import { withShell } from './routes';

function Broken(): never {
  throw new Error('the drawing canvas exploded');
}

describe('route table', () => {
  it.each(['/nonexistent', '/imagesets/extra', '/pimuser/other', '/Imagesets2'])('shows not-found for %s', (path) => {
    renderApp(path);
    expect(screen.getByText('Sorry, page not found!')).toBeTruthy();
  });

  it.each([...UNAVAILABLE_SCREENS])('has the screen %s, honestly marked as not built yet', (screenPath) => {
    renderApp(`/${screenPath}`);
    expect(screen.getByText('This screen is not available in this version yet.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).not.toMatch(/^screens\./);
  });

  it('shows the settings placeholder', () => {
    renderApp('/settings');
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the change log of this release', () => {
    renderApp('/changelog');
    expect(screen.getByRole('heading', { name: 'Roadmap/Change log' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Coming next' })).toBeTruthy();
  });

  it('prompts a signed-out visitor of the start page to log in', () => {
    renderApp('/');
    expect(screen.getByText('Log in to see your image sets.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Google login' })).toBeTruthy();
  });

  it('shows a render failure as Something went wrong: "{message}", below the nav bar', () => {
    // React and the router log the failure; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRoutes(withShell([{ path: '*', element: <Broken /> }]), '/');
    expect(screen.getByText('Something went wrong: "the drawing canvas exploded"')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'PIM home' })).toBeTruthy();
  });
});
