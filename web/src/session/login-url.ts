import { LOGIN_CHECK_PARAM } from '@pim/contract';
import { useLocation } from 'react-router';
import { apiUrl } from '../api/client';
import { BASENAME } from './app-config';
import { loginCheck } from './login-check';

/** Pages that only exist to sign in: after signing in, the user should land on the start page instead. */
const LOGIN_PATHS = new Set(['/login', '/logingoogle']);

/**
 * The provider's sign-in, returning to `redirect` (a full path under /pim) afterwards, with the
 * login check this browser keeps (the landing page takes the token only with it).
 */
export function buildLoginUrl(origin: string, redirect: string): string {
  const returnURL = `${origin}${BASENAME}/`;
  const check = `&${LOGIN_CHECK_PARAM}=${encodeURIComponent(loginCheck())}`;
  return `${apiUrl('google/login')}?returnURL=${encodeURIComponent(returnURL)}&redirect=${encodeURIComponent(redirect)}${check}`;
}

export function useLoginUrl(): string {
  const { pathname, search } = useLocation();
  const redirect = LOGIN_PATHS.has(pathname) ? `${BASENAME}/` : `${BASENAME}${pathname}${search}`;
  return buildLoginUrl(window.location.origin, redirect);
}
