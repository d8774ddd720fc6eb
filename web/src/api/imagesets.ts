import {
  createImageSetResponseSchema,
  documentImageSetSchema,
  hierarchySchema,
  type CreateImageSetRequest,
  type UpdateImageSetRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';
import { imageSetKeys } from './image-set-list';

export function useImageSet(uuid: string) {
  return useQuery({
    queryKey: imageSetKeys.detail(uuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimageset/${encodeURIComponent(uuid)}`, { schema: documentImageSetSchema, signal }),
  });
}

export function useCreateImageSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateImageSetRequest) =>
      apiFetch('pim/documentimageset/create', { method: 'POST', body: request, schema: createImageSetResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageSetKeys.all }),
  });
}

/** A set's direct children; each folder of the tree asks once, keyed by its own set. */
export const hierarchyKey = (uuid: string) => ['imagesets', 'hierarchy', uuid] as const;

export function useHierarchy(uuid: string, enabled = true) {
  return useQuery({
    queryKey: hierarchyKey(uuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimageset/${encodeURIComponent(uuid)}/hierarchy`, { schema: hierarchySchema, signal }),
    enabled,
    // Children load once per folder; edits put the server's answer into the cache themselves.
    staleTime: Infinity,
  });
}

export type HierarchyChange =
  | { action: 'add' | 'remove'; kind: 'subsets' | 'documentimages'; uuid: string }
  | { action: 'sort' };

/** Every tree edit answers with the updated hierarchy of the folder it changed. */
export function useHierarchyChange(setUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: HierarchyChange) => {
      const base = `pim/documentimageset/${encodeURIComponent(setUuid)}`;
      if (change.action === 'sort') return apiFetch(`${base}/sort`, { method: 'POST', body: {}, schema: hierarchySchema });
      return apiFetch(`${base}/${change.kind}`, {
        method: change.action === 'add' ? 'PUT' : 'DELETE',
        body: { uuid: change.uuid },
        schema: hierarchySchema,
      });
    },
    onSuccess: (hierarchy) => queryClient.setQueryData(hierarchyKey(setUuid), hierarchy),
  });
}

export function useUpdateImageSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateImageSetRequest) =>
      apiFetch('pim/documentimageset/update', { method: 'POST', body: request, schema: documentImageSetSchema }),
    onSuccess: (set) => {
      queryClient.setQueryData(imageSetKeys.detail(set.uuid), set);
      return queryClient.invalidateQueries({ queryKey: ['imagesets', 'list'] });
    },
  });
}

export function useDeleteImageSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(`pim/documentimageset/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['imagesets', 'list'] }),
  });
}
