import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import elephantUrl from '../assets/elephant.svg';
import { LOGIN_CHECKS_KEY, loginCheck } from '../session/login-check';
import { setToken } from '../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch, testUser } from '../test/render';

const ADMIN_ITEMS = [
  'Api keys / minions', 'Users', 'User groups', 'Pimfieldsets', 'Configurations', 'Environments',
  'Elasticsearch indices', 'Kraken models', 'Laypa models', 'Loghi HTR models',
  'Loghi line detection models', 'P2PaLA models', 'Pylaia models', 'Siamese network models',
  'Tesseract 4 models', 'Dashboard', 'Roadmap/Change log',
];

function signedInAs(roles: string[]) {
  setToken('tok');
  return stubFetch(signedInHandler(roles));
}

async function openMenu(name: string): Promise<string[]> {
  await userEvent.click(await screen.findByRole('button', { name }));
  const menu = await screen.findByRole('menu');
  return within(menu).getAllByRole('menuitem').map((item) => item.textContent ?? '');
}

/** Signing out clears localStorage; the Login link shown then keeps its login check there, and nothing else is. */
function storedKeys(): string[] {
  return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)!);
}

function topLevel(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Main navigation' });
  return Array.from(nav.children).map((child) => child.textContent ?? '');
}

describe('nav bar', () => {
  it('shows only the brand, the language switch and Login when signed out', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    renderApp('/imagesets?state=%7B%7D');
    const login = await screen.findByRole('link', { name: 'Login' });
    const expected =
      `/api/google/login?returnURL=${encodeURIComponent('http://localhost:3000/pim/')}` +
      `&redirect=${encodeURIComponent('/pim/imagesets?state=%7B%7D')}&loginCheck=${loginCheck()}`;
    expect(login.getAttribute('href')).toBe(expected);
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the user menus for AUTHENTICATED, without Admin', async () => {
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(topLevel()).toEqual(['Data', 'Analyze Image', 'Digital Forensics', 'Jobs', 'Search']);
    // The start page below links there too.
    expect(within(nav).getByRole('link', { name: 'Analyze Image' }).getAttribute('href')).toBe('/pim/analyzeimage');
    expect(await openMenu('Data')).toEqual(['Imagesets', 'FontDescriptions']);
  });

  it('lists the Digital Forensics and Jobs entries', async () => {
    signedInAs(['authenticated']);
    renderApp('/');
    expect(await openMenu('Digital Forensics')).toEqual([
      'Find Siamese', 'Siamese compare images', 'Siamese compare with imagesets', 'Find Siamese Single',
      'Find Siamese Single new', 'Siamese Confusion Matrices', 'Datasets with Annotated images overview',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Find Siamese Single new' }).getAttribute('href')).toBe('/pim/findsiamesesingle2');
  });

  it('adds the Admin menu for ADMIN, with Loghi HTR models', async () => {
    signedInAs(['AUTHENTICATED', 'ADMIN']);
    renderApp('/');
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(topLevel()).toContain('Admin');
    expect(await openMenu('Admin')).toEqual(ADMIN_ITEMS);
  });

  it("compares admin case-insensitively but shows Loghi HTR models only for exact 'ADMIN'", async () => {
    signedInAs(['authenticated', 'admin']);
    renderApp('/');
    expect(await openMenu('Admin')).toEqual(ADMIN_ITEMS.filter((item) => item !== 'Loghi HTR models'));
  });

  it('signs out on a 403 from the role check', async () => {
    setToken('expired');
    const fetchMock = stubFetch((url) =>
      url.pathname === '/api/google/getRoles'
        ? jsonResponse({ error: 'forbidden', message: 'Session expired' }, 403)
        : new Response(null, { status: 204 }),
    );
    localStorage.setItem('onlyOwnData', 'true');
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Login' })).toBeTruthy();
    await waitFor(() => expect(fetchedUrls(fetchMock)).toContain('/api/google/expired'));
    expect(storedKeys()).toEqual([LOGIN_CHECKS_KEY]);
    // The role check only logs: no toast.
    expect(screen.queryByText(/Unexpected server response/)).toBeNull();
  });

  it('logs out: ends the session on the server and clears localStorage', async () => {
    const fetchMock = signedInAs(['AUTHENTICATED']);
    localStorage.setItem('something', 'else');
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('link', { name: 'Login' })).toBeTruthy();
    const deleteCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(String(deleteCall?.[0])).toBe('/api/google/tok');
    expect(new Headers(deleteCall?.[1]?.headers).get('Authorization')).toBe('Google tok');
    expect(storedKeys()).toEqual([LOGIN_CHECKS_KEY]);
  });

  it('keeps Own data only as a stored preference', async () => {
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    const checkbox = await screen.findByRole('checkbox', { name: 'Own data only' });
    await userEvent.click(checkbox);
    expect(localStorage.getItem('onlyOwnData')).toBe('true');
    expect(checkbox).toHaveProperty('checked', true);
  });

  it('opens the About dialog', async () => {
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'About' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manuscript Dating' });
    expect(dialog.textContent).toContain("manuscript 'speed-dating' app");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a menu from the keyboard, its code loaded at the first opening, and gives the focus back', async () => {
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    const plain = await screen.findByRole('button', { name: 'Data' });
    expect(plain.getAttribute('aria-haspopup')).toBe('menu');
    expect(plain.getAttribute('aria-expanded')).toBe('false');
    plain.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Data' });
    await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Imagesets' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const button = screen.getByRole('button', { name: 'Data' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it("shows the user's email over the avatar, its code loaded when first pointed at", async () => {
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    const plain = await screen.findByRole('link', { name: 'Profile of Ada Researcher' });
    await userEvent.hover(plain);
    // The avatar inside the tooltip, once its code is there, takes the plain one's place.
    await waitFor(() => expect(screen.getByRole('link', { name: 'Profile of Ada Researcher' })).not.toBe(plain));
    await userEvent.hover(screen.getByRole('link', { name: 'Profile of Ada Researcher' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe(testUser().email);
  });

  it('links the avatar to the own profile and shows the elephant for avatar "elephant"', async () => {
    setToken('tok');
    stubFetch((url) =>
      url.pathname === '/api/google/getRoles'
        ? jsonResponse(['AUTHENTICATED'])
        : jsonResponse(testUser({ avatar: 'elephant' })),
    );
    renderApp('/');
    const avatar = await screen.findByRole('link', { name: 'Profile of Ada Researcher' });
    expect(avatar.getAttribute('href')).toBe('/pim/pimuser/self');
    await waitFor(() => expect(avatar.querySelector('img')?.getAttribute('src')).toBe(elephantUrl));
  });

  it('moves the menus and account controls behind a burger on narrow screens', async () => {
    const wideScreen = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ ...wideScreen(query), matches: false }));
    signedInAs(['AUTHENTICATED']);
    renderApp('/');
    const burger = await screen.findByRole('button', { name: 'Open or close the menu' });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();

    await userEvent.click(burger);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Data' }));
    expect((await within(nav).findByRole('link', { name: 'Imagesets' })).getAttribute('href')).toBe('/pim/imagesets');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Own data only' })).toBeTruthy();
  });
});
