import { namedRefListSchema, searchIndexListSchema, searchIndexSchema, type SaveSearchIndexRequest } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const searchIndexKeys = {
  all: ['searchindices'] as const,
  list: ['searchindices', 'list'] as const,
  one: (uuid: string) => ['searchindices', 'one', uuid] as const,
  imageSets: (uuid: string) => ['searchindices', 'imagesets', uuid] as const,
};

const indexPath = (uuid: string) => `pim/elasticsearchindex/${encodeURIComponent(uuid)}`;

/** `GET pim/elasticsearchindex`: every search index, by name. */
export function useSearchIndices() {
  return useQuery({
    queryKey: searchIndexKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/elasticsearchindex', { schema: searchIndexListSchema, signal }),
  });
}

/** `GET pim/elasticsearchindex/{uuid}`. Quiet: the form says itself why there is nothing to edit. */
export function useSearchIndex(uuid: string) {
  return useQuery({
    queryKey: searchIndexKeys.one(uuid),
    queryFn: ({ signal }) => apiFetch(indexPath(uuid), { schema: searchIndexSchema, signal, quiet: true }),
  });
}

/** `GET pim/elasticsearchindex/{uuid}/documentimagesets`: the image sets that use the index. */
export function useSearchIndexImageSets(uuid: string) {
  return useQuery({
    queryKey: searchIndexKeys.imageSets(uuid),
    queryFn: ({ signal }) => apiFetch(`${indexPath(uuid)}/documentimagesets`, { schema: namedRefListSchema, signal, quiet: true }),
  });
}

/** `POST pim/elasticsearchindex` without a uuid, else `PUT pim/elasticsearchindex/{uuid}`. */
export function useSaveSearchIndex(uuid: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveSearchIndexRequest) =>
      uuid
        ? apiFetch(indexPath(uuid), { method: 'PUT', body: request, schema: searchIndexSchema })
        : apiFetch('pim/elasticsearchindex', { method: 'POST', body: request, schema: searchIndexSchema }),
    // Pickers and image sets show index names too.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['typeahead', 'pim/elasticsearchindex/autocomplete'] });
      return queryClient.invalidateQueries({ queryKey: searchIndexKeys.all });
    },
  });
}
