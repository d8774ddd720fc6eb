import { aclEntryListSchema, aclPermissionListSchema, type AddAclEntryRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const aclKeys = {
  entries: (subject: string) => ['acl', 'entries', subject] as const,
  permissions: ['acl', 'permissions'] as const,
};

export function useAclEntries(subject: string, enabled = true) {
  return useQuery({
    queryKey: aclKeys.entries(subject),
    queryFn: ({ signal }) => apiFetch(`pim/acl/allfor/${encodeURIComponent(subject)}`, { schema: aclEntryListSchema, signal }),
    enabled,
  });
}

/** `GET pim/acl/permissions`. The role an entry names comes from its group: useGroupPossibleRoles. */
export function useAclPermissions(enabled = true) {
  return useQuery({
    queryKey: aclKeys.permissions,
    queryFn: ({ signal }) => apiFetch('pim/acl/permissions', { schema: aclPermissionListSchema, signal }),
    enabled,
    staleTime: Infinity,
  });
}

export function useAddAclEntry(subject: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AddAclEntryRequest) =>
      apiFetch(`pim/acl/subject/${encodeURIComponent(subject)}`, { method: 'POST', body: request, schema: aclEntryListSchema }),
    onSuccess: (entries) => queryClient.setQueryData(aclKeys.entries(subject), entries),
  });
}

export function useDeleteAclEntry(subject: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(`pim/acl/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aclKeys.entries(subject) }),
  });
}
