import {
  fieldTypesResponseSchema,
  pimFieldSetListSchema,
  pimFieldSetSchema,
  type PimFieldSetSummary,
  type SavePimFieldSetRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const fieldSetKeys = {
  all: ['fieldsets'] as const,
  list: (onlyOwnData: boolean) => ['fieldsets', 'list', onlyOwnData] as const,
  one: (uuid: string) => ['fieldsets', 'one', uuid] as const,
};

/** `GET pim/pimfieldset/?onlyOwnData=`: the field sets the caller may see. */
export function useFieldSets(onlyOwnData: boolean) {
  return useQuery({
    queryKey: fieldSetKeys.list(onlyOwnData),
    queryFn: ({ signal }) => apiFetch('pim/pimfieldset/', { query: { onlyOwnData }, schema: pimFieldSetListSchema, signal }),
  });
}

/** `GET pim/pimfieldset/{uuid}`: one set with its fields in order. */
export function useFieldSet(uuid: string | null, options: { quiet?: boolean } = {}) {
  return useQuery({
    queryKey: fieldSetKeys.one(uuid ?? ''),
    queryFn: ({ signal }) =>
      apiFetch(`pim/pimfieldset/${encodeURIComponent(uuid ?? '')}`, { schema: pimFieldSetSchema, signal, quiet: options.quiet }),
    enabled: uuid !== null,
    retry: false,
  });
}

/** `GET pim/metadata/fieldtypes`: the types a field can have. */
export function useFieldTypes() {
  return useQuery({
    queryKey: ['fieldsets', 'types'],
    queryFn: ({ signal }) => apiFetch('pim/metadata/fieldtypes', { schema: fieldTypesResponseSchema, signal }),
    staleTime: Infinity,
  });
}

/** Creates (`POST pim/pimfieldset/create`) or updates (`POST pim/pimfieldset/{uuid}/update`) a set. */
export function useSaveFieldSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: SavePimFieldSetRequest) =>
      apiFetch(set.uuid ? `pim/pimfieldset/${encodeURIComponent(set.uuid)}/update` : 'pim/pimfieldset/create', {
        method: 'POST',
        body: set,
        schema: pimFieldSetSchema,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(fieldSetKeys.one(saved.uuid), saved);
      return queryClient.invalidateQueries({ queryKey: ['fieldsets', 'list'] });
    },
  });
}

/** `DELETE pim/pimfieldset/{uuid}`: the set, its fields and every value stored with it. */
export function useDeleteFieldSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(`pim/pimfieldset/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
    onSuccess: (_, uuid) => {
      queryClient.setQueriesData<PimFieldSetSummary[]>({ queryKey: ['fieldsets', 'list'] }, (list) => list?.filter((set) => set.uuid !== uuid));
      // Marked stale, refetched when next shown: refetching now would ask for the deleted set (a 404 toast).
      return queryClient.invalidateQueries({ queryKey: fieldSetKeys.all, refetchType: 'none' });
    },
  });
}
