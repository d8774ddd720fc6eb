import { z } from 'zod';

export const ROLE = {
  AUTHENTICATED: 'AUTHENTICATED',
  ADMIN: 'ADMIN',
  /** An API key of a remote worker: it claims and runs jobs through the worker calls, and nothing else. */
  MINION: 'MINION',
} as const;

/** Roles are compared case-insensitively everywhere (the spec's rule). */
export function hasRole(roles: readonly string[], role: string): boolean {
  const wanted = role.toLowerCase();
  return roles.some((r) => r.toLowerCase() === wanted);
}

export const rolesResponseSchema = z.array(z.string());
export type RolesResponse = z.infer<typeof rolesResponseSchema>;

/**
 * The one-time value the web app's Login link carries and keeps in the browser; the sign-in
 * returns it next to `gsid`, and the landing page takes a `gsid` only with a value it keeps (a
 * link with someone else's `gsid` cannot switch the signed-in user).
 */
export const LOGIN_CHECK_PARAM = 'loginCheck';

export const loginQuerySchema = z.object({
  returnURL: z.string().max(2048).optional().describe('absolute app URL the browser returns to'),
  redirect: z.string().max(2048).optional().describe('app path to open after sign-in; must start with /'),
  [LOGIN_CHECK_PARAM]: z
    .string()
    .regex(/^[\w-]{16,128}$/, 'loginCheck must be 16 to 128 letters, digits, - or _.')
    .optional()
    .describe('a one-time value of the browser, returned next to gsid'),
});
export type LoginQuery = z.infer<typeof loginQuerySchema>;

export const sessionTokenParams = z.object({ token: z.string().min(1).max(200) });

/** The redirect rule of the landing page and of the server: only app-relative paths. */
export function isSafeRedirect(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}
