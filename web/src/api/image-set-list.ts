import { documentImageSetListSchema } from '@pim/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { readOwnDataOnly } from '../session/own-data';
import { apiFetch } from './client';

// The image sets' query keys and their list, apart from the other image set calls (imagesets.ts):
// the shell asks for the list at a first load of its screen (prefetchImageSets), and so loads this
// module up front, not the rest.

export const imageSetKeys = {
  all: ['imagesets'] as const,
  list: (onlyOwnData: boolean) => ['imagesets', 'list', { onlyOwnData }] as const,
  detail: (uuid: string) => ['imagesets', 'detail', uuid] as const,
};

/** A list fetched moments ago (with the screen's code, at the first load) is not fetched again as the screen mounts. */
const JUST_FETCHED_MS = 5_000;

const imageSetsQuery = (onlyOwnData: boolean, quiet = false) =>
  queryOptions({
    queryKey: imageSetKeys.list(onlyOwnData),
    queryFn: ({ signal }) =>
      apiFetch('pim/documentimageset', { query: { onlyOwnData }, schema: documentImageSetListSchema, signal, quiet }),
    staleTime: JUST_FETCHED_MS,
  });

export function useImageSets(onlyOwnData: boolean) {
  return useQuery(imageSetsQuery(onlyOwnData));
}

/**
 * The list as the screen will ask for it, started with its code at the first load. Quiet: a
 * failure shows when the screen asks again as it opens, once.
 */
export function prefetchImageSets(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(imageSetsQuery(readOwnDataOnly(), true));
}
