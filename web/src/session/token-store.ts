import { PAGE_COOKIE } from '@pim/contract';
import { writePageCookie } from './page-cookies';

/**
 * The session token, kept in memory and in localStorage under `token` (spec part 1 §2), with a
 * copy in a cookie of the app's pages so the server can render a screen for its user
 * (page-cookies.ts). A tiny external store so the API client (outside React) and components read
 * the same value.
 */
export const TOKEN_KEY = 'token';

let token: string | null = readStoredToken();
const listeners = new Set<() => void>();

function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return token;
}

export function setToken(value: string): void {
  token = value;
  localStorage.setItem(TOKEN_KEY, value);
  writePageCookie(PAGE_COOKIE.token, value);
  emit();
}

/** On the server, the token a page is rendered for (web/src/server-render.tsx): in memory only. */
export function setRenderToken(value: string | null): void {
  token = value;
}

/** Signing out clears all of localStorage, as the spec says, not only the token. */
export function clearStoredSession(): void {
  token = null;
  localStorage.clear();
  for (const name of Object.values(PAGE_COOKIE)) writePageCookie(name, null);
  emit();
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

