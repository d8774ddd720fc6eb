import { PAGE_COOKIE, SERVER_RENDER_ELEMENT_ID, type ServerRenderState } from '@pim/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPageCookie } from '../session/page-cookies';
import { clearStoredSession, setToken } from '../session/token-store';
import { changeLanguage } from './i18n';
import { serverRenderedState, syncPageCookies } from './page-render';

function visit(pathAndQuery: string) {
  window.history.replaceState(null, '', pathAndQuery);
}

/** The page as the server sends it for a screen it drew: the render's data block in the body. */
function pageWith(state: unknown) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = SERVER_RENDER_ELEMENT_ID;
  element.textContent = typeof state === 'string' ? state : JSON.stringify(state);
  document.body.append(element);
}

describe("the page cookies the server draws a user's screen from", () => {
  beforeEach(() => visit('/pim/imagesets'));
  afterEach(() => clearStoredSession());

  it('follow the token, the chosen language and Own data only as the browser keeps them, and go at sign-out', () => {
    setToken('token-of-ana');
    expect(readPageCookie(PAGE_COOKIE.token)).toBe('token-of-ana');
    localStorage.setItem('onlyOwnData', 'true');
    localStorage.setItem('language', 'nl');
    // A browser that kept the session from before the cookies, or let them expire: its next start writes them.
    document.cookie = `${PAGE_COOKIE.token}=; Path=/pim; Max-Age=0`;
    syncPageCookies();
    expect(readPageCookie(PAGE_COOKIE.token)).toBe('token-of-ana');
    expect(readPageCookie(PAGE_COOKIE.ownDataOnly)).toBe('true');
    expect(readPageCookie(PAGE_COOKIE.language)).toBe('nl');
    changeLanguage('en');
    expect(readPageCookie(PAGE_COOKIE.language)).toBe('en');

    clearStoredSession();
    for (const name of Object.values(PAGE_COOKIE)) expect(readPageCookie(name), name).toBeNull();
  });
});

describe('the state of a screen the server drew into the page', () => {
  const drawn: ServerRenderState = { url: '/pim/imagesets?state=x', token: 'token-of-ana', language: 'en', onlyOwnData: false, queries: { queries: [] } };

  beforeEach(() => {
    visit('/pim/imagesets?state=x');
    setToken('token-of-ana');
  });
  afterEach(() => {
    document.getElementById(SERVER_RENDER_ELEMENT_ID)?.remove();
    clearStoredSession();
  });

  it('is taken where the page was drawn for what this browser has: its address, token, language and Own data only', () => {
    pageWith(drawn);
    expect(serverRenderedState()).toEqual(drawn);
  });

  it('is not taken where the page was drawn for anything else, nor where there is none or it is no state', () => {
    expect(serverRenderedState()).toBeNull();
    for (const other of [{ url: '/pim/imagesets' }, { token: 'token-of-ben' }, { language: 'nl' }, { onlyOwnData: true }]) {
      pageWith({ ...drawn, ...other });
      expect(serverRenderedState(), JSON.stringify(other)).toBeNull();
      document.getElementById(SERVER_RENDER_ELEMENT_ID)?.remove();
    }
    for (const broken of ['{"url":', JSON.stringify({ ...drawn, token: 42 })]) {
      pageWith(broken);
      expect(serverRenderedState(), broken).toBeNull();
      document.getElementById(SERVER_RENDER_ELEMENT_ID)?.remove();
    }
  });
});
