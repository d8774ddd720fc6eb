import {
  createImageSetResponseSchema,
  documentImageSetListSchema,
  documentImageSetSchema,
  type CreateImageSetRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const imageSetKeys = {
  all: ['imagesets'] as const,
  list: (onlyOwnData: boolean) => ['imagesets', 'list', { onlyOwnData }] as const,
  detail: (uuid: string) => ['imagesets', 'detail', uuid] as const,
};

export function useImageSets(onlyOwnData: boolean) {
  return useQuery({
    queryKey: imageSetKeys.list(onlyOwnData),
    queryFn: ({ signal }) =>
      apiFetch('pim/documentimageset', { query: { onlyOwnData }, schema: documentImageSetListSchema, signal }),
  });
}

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
