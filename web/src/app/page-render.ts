import { PAGE_COOKIE, SERVER_RENDER_ELEMENT_ID, serverRenderStateSchema, type ServerRenderState } from '@pim/contract';
import { readOwnDataOnly } from '../session/own-data';
import { readPageCookie, writePageCookie } from '../session/page-cookies';
import { getToken } from '../session/token-store';
import { chosenLanguage, initialLanguage } from './i18n';

/**
 * The page cookies follow what this browser keeps (contract/src/page-render.ts): written at each
 * start, so a session stored before they existed, or a cookie the browser let expire, gets its copy.
 */
export function syncPageCookies(): void {
  const token = getToken();
  if (readPageCookie(PAGE_COOKIE.token) !== token) writePageCookie(PAGE_COOKIE.token, token);
  const language = chosenLanguage();
  if (readPageCookie(PAGE_COOKIE.language) !== language) writePageCookie(PAGE_COOKIE.language, language);
  const ownData = readOwnDataOnly() ? 'true' : null;
  if (readPageCookie(PAGE_COOKIE.ownDataOnly) !== ownData) writePageCookie(PAGE_COOKIE.ownDataOnly, ownData);
}

/**
 * The state of the screen the server drew into this page, where it was drawn for exactly what this
 * browser has now: the same address, session token, language and 'Own data only'. Otherwise (the
 * landing took a new token or followed a redirect, the user changed a preference in another tab)
 * null, and the app draws the screen itself rather than take over markup made for something else.
 */
export function serverRenderedState(doc: Document = document): ServerRenderState | null {
  const text = doc.getElementById(SERVER_RENDER_ELEMENT_ID)?.textContent;
  if (!text) return null;
  let state: ServerRenderState | undefined;
  try {
    state = serverRenderStateSchema.safeParse(JSON.parse(text)).data;
  } catch {
    return null;
  }
  if (!state) return null;
  const { pathname, search } = doc.defaultView?.location ?? window.location;
  const same =
    state.url === pathname + search && state.token === getToken() && state.language === initialLanguage() && state.onlyOwnData === readOwnDataOnly();
  return same ? state : null;
}
