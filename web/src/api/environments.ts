import { environmentListSchema, environmentSchema, type SaveEnvironmentRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const environmentKeys = {
  all: ['environments'] as const,
  list: ['environments', 'list'] as const,
  one: (uuid: string) => ['environments', 'one', uuid] as const,
};

const environmentPath = (uuid: string) => `pim/environment/${encodeURIComponent(uuid)}`;

/** `GET pim/environment`: every environment, by title (admins only; others get 403). */
export function useEnvironments() {
  return useQuery({
    queryKey: environmentKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/environment', { schema: environmentListSchema, signal }),
  });
}

/** `GET pim/environment/{uuid}`. Quiet: the form says itself why there is nothing to edit. */
export function useEnvironment(uuid: string) {
  return useQuery({
    queryKey: environmentKeys.one(uuid),
    queryFn: ({ signal }) => apiFetch(environmentPath(uuid), { schema: environmentSchema, signal, quiet: true }),
  });
}

/** `POST pim/environment` without a uuid, else `PUT pim/environment/{uuid}`; answers the saved environment. */
export function useSaveEnvironment(uuid: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveEnvironmentRequest) =>
      uuid
        ? apiFetch(environmentPath(uuid), { method: 'PUT', body: request, schema: environmentSchema })
        : apiFetch('pim/environment', { method: 'POST', body: request, schema: environmentSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
