import { useLocation } from 'react-router';
import { apiUrl } from '../api/client';
import { BASENAME } from './landing';

/** Pages that only exist to sign in: after signing in, the user should land on the start page instead. */
const LOGIN_PATHS = new Set(['/login', '/logingoogle']);

/** The provider's sign-in, returning to `redirect` (a full path under /pim) afterwards. */
export function buildLoginUrl(origin: string, redirect: string): string {
  const returnURL = `${origin}${BASENAME}/`;
  return `${apiUrl('google/login')}?returnURL=${encodeURIComponent(returnURL)}&redirect=${encodeURIComponent(redirect)}`;
}

export function useLoginUrl(): string {
  const { pathname, search } = useLocation();
  const redirect = LOGIN_PATHS.has(pathname) ? `${BASENAME}/` : `${BASENAME}${pathname}${search}`;
  return buildLoginUrl(window.location.origin, redirect);
}
