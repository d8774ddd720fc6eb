import { configurationListSchema, configurationSchema, type SaveConfigurationRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const configurationKeys = {
  all: ['configurations'] as const,
  list: ['configurations', 'list'] as const,
  one: (id: string) => ['configurations', 'one', id] as const,
};

const configurationPath = (id: string) => `pim/configuration/${encodeURIComponent(id)}`;

/** `GET pim/configuration/index`: every configuration, by key (admins only; others get 403). */
export function useConfigurations() {
  return useQuery({
    queryKey: configurationKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/configuration/index', { schema: configurationListSchema, signal }),
  });
}

/** `GET pim/configuration/{id}`. Quiet: the form says itself why there is nothing to edit. */
export function useConfiguration(id: string) {
  return useQuery({
    queryKey: configurationKeys.one(id),
    queryFn: ({ signal }) => apiFetch(configurationPath(id), { schema: configurationSchema, signal, quiet: true }),
  });
}

/** `POST pim/configuration/create` without an id, else `PUT pim/configuration/{uuid}`; answers the saved configuration. */
export function useSaveConfiguration(uuid: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveConfigurationRequest) =>
      uuid
        ? apiFetch(configurationPath(uuid), { method: 'PUT', body: request, schema: configurationSchema })
        : apiFetch('pim/configuration/create', { method: 'POST', body: request, schema: configurationSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.all }),
  });
}

/** `DELETE pim/configuration/{uuid}`; the list is asked again. */
export function useDeleteConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(configurationPath(uuid), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.all }),
  });
}
