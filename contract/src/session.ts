import { z } from 'zod';

export const ROLE = {
  AUTHENTICATED: 'AUTHENTICATED',
  ADMIN: 'ADMIN',
} as const;

/** Roles are compared case-insensitively everywhere (the spec's rule). */
export function hasRole(roles: readonly string[], role: string): boolean {
  const wanted = role.toLowerCase();
  return roles.some((r) => r.toLowerCase() === wanted);
}

export const rolesResponseSchema = z.array(z.string());
export type RolesResponse = z.infer<typeof rolesResponseSchema>;

export const loginQuerySchema = z.object({
  returnURL: z.string().max(2048).optional().describe('absolute app URL the browser returns to'),
  redirect: z.string().max(2048).optional().describe('app path to open after sign-in; must start with /'),
});

export const sessionTokenParams = z.object({ token: z.string().min(1).max(200) });

/** The redirect rule of the landing page and of the server: only app-relative paths. */
export function isSafeRedirect(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}
