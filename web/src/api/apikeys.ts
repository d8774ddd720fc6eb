import { apiKeyListSchema, apiKeyRoleListSchema, createdApiKeySchema, type CreateApiKeyRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const apiKeyKeys = {
  list: ['apikeys', 'list'] as const,
  possibleRoles: ['apikeys', 'possibleRoles'] as const,
};

/** `GET pim/apikey`: every key, newest first, each shown by the start of its key. */
export function useApiKeys() {
  return useQuery({
    queryKey: apiKeyKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/apikey', { schema: apiKeyListSchema, signal }),
  });
}

/** `GET pim/apikey/possibleroles`: the roles a key may hold. */
export function usePossibleApiKeyRoles() {
  return useQuery({
    queryKey: apiKeyKeys.possibleRoles,
    queryFn: ({ signal }) => apiFetch('pim/apikey/possibleroles', { schema: apiKeyRoleListSchema, signal }),
    staleTime: Infinity,
  });
}

/** `POST /pim/apikey`: the answer holds the whole key, the only time the server sends it. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiKeyRequest) =>
      apiFetch('pim/apikey', { method: 'POST', body: request, schema: createdApiKeySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list }),
  });
}

/** `PUT pim/apikey/{uuid}/enable|disable`, then the list again. */
export function useSetApiKeyDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, disabled }: { uuid: string; disabled: boolean }) =>
      apiFetch(`pim/apikey/${encodeURIComponent(uuid)}/${disabled ? 'disable' : 'enable'}`, { method: 'PUT' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list }),
  });
}
