import { isSafeRedirect, LOGIN_CHECK_PARAM } from '@pim/contract';
import { BASENAME } from '../session/app-config';
import { takeLoginCheck } from '../session/login-check';
import { setToken } from '../session/token-store';

/** '/pim/imagesets?x=1' → '/imagesets?x=1'; paths outside the basename are taken as app paths. */
export function toAppPath(fullPath: string): string {
  if (fullPath === BASENAME) return '/';
  if (fullPath.startsWith(`${BASENAME}/`) || fullPath.startsWith(`${BASENAME}?`)) {
    const rest = fullPath.slice(BASENAME.length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  }
  return fullPath;
}

/**
 * The landing rule (spec part 1 §2), applied on every page load before the router starts:
 * `gsid` becomes the session token, and `redirect` is followed only when it is an app-relative
 * path. The parameters are removed from the address so the token never stays in history.
 *
 * Beyond the spec: `gsid` is taken only next to the login check of a sign-in this browser
 * started (login-check.ts); without it, it is ignored and the current session stays, so a link
 * with someone else's session cannot sign this browser in as them.
 */
export function applyLanding(win: Window = window): void {
  const url = new URL(win.location.href);
  const gsid = url.searchParams.get('gsid');
  const redirect = url.searchParams.get('redirect');
  const check = url.searchParams.get(LOGIN_CHECK_PARAM);
  if (gsid === null && redirect === null && check === null) return;

  if (gsid && takeLoginCheck(check)) setToken(gsid);
  for (const name of ['gsid', 'redirect', LOGIN_CHECK_PARAM]) url.searchParams.delete(name);

  const target = isSafeRedirect(redirect) ? BASENAME + toAppPath(redirect) : url.pathname + url.search + url.hash;
  win.history.replaceState(win.history.state, '', target);
}
