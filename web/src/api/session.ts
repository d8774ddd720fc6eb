import { rolesResponseSchema, userSchema } from '@pim/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const sessionKeys = {
  roles: (token: string | null) => ['session', 'roles', token] as const,
  self: (token: string | null) => ['session', 'self', token] as const,
  /** The own record under any token: invalidated when the user saves their profile (name, avatar). */
  anySelf: ['session', 'self'] as const,
};

/** The role check only logs its failures (spec part 2 §8); the session decides what a 401/403 means. */
const rolesQuery = (token: string | null) =>
  queryOptions({
    queryKey: sessionKeys.roles(token),
    queryFn: ({ signal }) =>
      apiFetch('google/getRoles', { method: 'POST', schema: rolesResponseSchema, quiet: true, signal }),
    staleTime: Infinity,
  });

const selfQuery = (token: string | null, quiet = false) =>
  queryOptions({
    queryKey: sessionKeys.self(token),
    queryFn: ({ signal }) => apiFetch('pim/users/self', { schema: userSchema, signal, quiet }),
    staleTime: Infinity,
  });

export function useRoles(token: string | null) {
  return useQuery({ ...rolesQuery(token), enabled: token !== null });
}

export function useSelfUser(token: string | null, enabled: boolean) {
  return useQuery({ ...selfQuery(token), enabled: token !== null && enabled });
}

/**
 * At start-up, with a stored token: the role check and the user's own record at once, rather than
 * the record after the roles. The record is asked for quietly: should the token be refused, the
 * role check signs out, and no toast is owed for a request the user never made.
 */
export function prefetchSession(queryClient: QueryClient, token: string | null): void {
  if (token === null) return;
  void queryClient.prefetchQuery(rolesQuery(token));
  void queryClient.prefetchQuery(selfQuery(token, true));
}

/** Ends the session on the server. The token is passed in because the local store is cleared first. */
export function endSession(token: string): Promise<void> {
  return apiFetch(`google/${encodeURIComponent(token)}`, { method: 'DELETE', token, quiet: true });
}
