import { type PAGE_COOKIE, PAGE_COOKIE_PATH } from '@pim/contract';

/**
 * The copies of the browser's session token and preferences that the app's page requests carry, so
 * the server can render a screen for its user (contract/src/page-render.ts). localStorage stays the
 * record; these follow it. Sent with the app's pages only (path /pim), not with a cross-site
 * request other than a link followed (SameSite=Lax), over HTTPS only where the app is on HTTPS.
 */
type PageCookie = (typeof PAGE_COOKIE)[keyof typeof PAGE_COOKIE];

/** A session token's lifetime on the server is its own; the copy goes with the browser's stored token, renewed at each start. */
const MAX_AGE_S = 60 * 60 * 24 * 30;

export function writePageCookie(name: PageCookie, value: string | null): void {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const life = value === null ? 'Max-Age=0' : `Max-Age=${MAX_AGE_S}`;
  document.cookie = `${name}=${encodeURIComponent(value ?? '')}; Path=${PAGE_COOKIE_PATH}; ${life}; SameSite=Lax${secure}`;
}

export function readPageCookie(name: PageCookie): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
