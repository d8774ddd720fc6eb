import { userListSchema, userRoleListSchema, userSchema, type UpdateUserRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';
import { sessionKeys } from './session';

/** A user is asked for by uuid, or as 'self' (the signed-in user). */
export type UserId = string;

export const userKeys = {
  list: ['users', 'list'] as const,
  anyOne: ['users', 'one'] as const,
  one: (id: UserId) => ['users', 'one', id] as const,
  possibleRoles: ['users', 'possibleRoles'] as const,
};

const userPath = (id: UserId) => `pim/users/${encodeURIComponent(id)}`;

/** `GET pim/users`: every user (admins only; others get 403). */
export function useUsers() {
  return useQuery({
    queryKey: userKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/users', { schema: userListSchema, signal }),
  });
}

/** `GET pim/users/{uuid|self}`. */
export function useUser(id: UserId) {
  return useQuery({
    queryKey: userKeys.one(id),
    queryFn: ({ signal }) => apiFetch(userPath(id), { schema: userSchema, signal }),
  });
}

/** `GET pim/users/possibleroles`: the roles an admin may give a user. */
export function usePossibleUserRoles(enabled: boolean) {
  return useQuery({
    queryKey: userKeys.possibleRoles,
    queryFn: ({ signal }) => apiFetch('pim/users/possibleroles', { schema: userRoleListSchema, signal }),
    enabled,
    staleTime: Infinity,
  });
}

export interface SaveUserVariables {
  /** How the page asked for the user ('self' or its uuid): the answer is cached under it. */
  id: UserId;
  uuid: string;
  /** The signed-in user's own record: the nav bar's avatar shows it too. */
  own: boolean;
  user: UpdateUserRequest;
}

/**
 * `POST pim/users/{uuid}/update`; it answers the user as the server now holds it (the server takes
 * only what the caller may change), so the form starts again from the stored record.
 */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, user }: SaveUserVariables) => apiFetch(`${userPath(uuid)}/update`, { method: 'POST', body: user, schema: userSchema }),
    onSuccess: (saved, { id, own }) => {
      queryClient.setQueryData(userKeys.one(id), saved);
      void queryClient.invalidateQueries({ queryKey: userKeys.list });
      if (own) void queryClient.invalidateQueries({ queryKey: sessionKeys.anySelf });
    },
  });
}

/** `PUT pim/users/{uuid}/enable|disable`; a disabled user's sessions end on the server. */
export function useSetUserDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, disabled }: { uuid: string; disabled: boolean }) =>
      apiFetch(`${userPath(uuid)}/${disabled ? 'disable' : 'enable'}`, { method: 'PUT' }),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: userKeys.list }), queryClient.invalidateQueries({ queryKey: userKeys.anyOne })]),
  });
}
