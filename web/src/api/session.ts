import { rolesResponseSchema, userSchema } from '@pim/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './client';

export const sessionKeys = {
  roles: (token: string | null) => ['session', 'roles', token] as const,
  self: (token: string | null) => ['session', 'self', token] as const,
  /** The own record under any token: invalidated when the user saves their profile (name, avatar). */
  anySelf: ['session', 'self'] as const,
};

/** The role check only logs its failures (spec part 2 §8); the session decides what a 401/403 means. */
export function useRoles(token: string | null) {
  return useQuery({
    queryKey: sessionKeys.roles(token),
    queryFn: ({ signal }) =>
      apiFetch('google/getRoles', { method: 'POST', schema: rolesResponseSchema, quiet: true, signal }),
    enabled: token !== null,
    staleTime: Infinity,
  });
}

export function useSelfUser(token: string | null, enabled: boolean) {
  return useQuery({
    queryKey: sessionKeys.self(token),
    queryFn: ({ signal }) => apiFetch('pim/users/self', { schema: userSchema, signal }),
    enabled: token !== null && enabled,
    staleTime: Infinity,
  });
}

/** Ends the session on the server. The token is passed in because the local store is cleared first. */
export function endSession(token: string): Promise<void> {
  return apiFetch(`google/${encodeURIComponent(token)}`, { method: 'DELETE', token, quiet: true });
}
