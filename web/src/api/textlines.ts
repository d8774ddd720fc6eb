import {
  differentTextLinesPageSchema,
  simpleTextLineSchema,
  type DifferentTextLinesQuery,
  type TextLineCorrection,
} from '@pim/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiUrl } from './client';

/** Which line to load: one by uuid, else a random one of an image or set, else any random one. */
export type TextLineSource = { uuid: string } | { parentuuid: string | null };

/** The server answers 204 when no line is left; apiFetch reads that as null. */
const lineOrNoneSchema = simpleTextLineSchema.nullable();

function linePath(source: TextLineSource): string {
  if ('uuid' in source) return `pim/pimsimpletextline/${encodeURIComponent(source.uuid)}`;
  if (source.parentuuid) return `pim/pimsimpletextline/random/parent/${encodeURIComponent(source.parentuuid)}`;
  return 'pim/pimsimpletextline/random';
}

/**
 * The spec (part 2 §8) has a failed line fetch logged only, not toasted: the screen shows its own
 * short error state instead.
 */
async function fetchTextLine(source: TextLineSource, signal: AbortSignal) {
  try {
    return await apiFetch(linePath(source), { schema: lineOrNoneSchema, signal, quiet: true });
  } catch (error) {
    if (!signal.aborted) console.error('Text line fetch failed:', error);
    throw error;
  }
}

/**
 * One line to correct (`line` null when none is left), with the turn it was fetched for. `turn`
 * counts the lines shown so far: a random line is asked for anew on each turn and never
 * refetched behind the person's back. While the next one loads, the last one stays.
 */
export function useTextLine(source: TextLineSource, turn: number) {
  return useQuery({
    queryKey: ['textlines', 'line', source, turn],
    queryFn: async ({ signal }) => ({ turn, line: await fetchTextLine(source, signal) }),
    staleTime: Infinity,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * One line by its uuid, to mark it on its image (a search hit's line); nothing is asked while
 * `uuid` is null. Quiet: the image is worth showing without it, and the page says it is missing.
 */
export function useMarkedTextLine(uuid: string | null) {
  return useQuery({
    queryKey: ['textlines', 'marked', uuid],
    queryFn: ({ signal }) =>
      apiFetch(linePath({ uuid: uuid! }), { schema: simpleTextLineSchema, signal, quiet: true }),
    enabled: uuid !== null,
    retry: false,
  });
}

const differentKey = ['textlines', 'different'] as const;

export function useSaveTextLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correction: TextLineCorrection) =>
      apiFetch('pim/pimsimpletextline/update', { method: 'POST', body: correction, schema: simpleTextLineSchema }),
    // A correction can move a line into or out of the 'different' list.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: differentKey }),
  });
}

export function useSkipTextLine() {
  return useMutation({
    mutationFn: (correction: TextLineCorrection) =>
      apiFetch('pim/pimsimpletextline/skip', { method: 'POST', body: correction, schema: lineOrNoneSchema }),
  });
}

/** One server-side page of the lines whose ground truth differs from their text. */
export function useDifferentTextLines(query: DifferentTextLinesQuery) {
  return useQuery({
    queryKey: [...differentKey, query],
    queryFn: ({ signal }) =>
      apiFetch('pim/pimsimpletextline/different', { query: { ...query }, schema: differentTextLinesPageSchema, signal }),
    // The table keeps showing the last page while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** The JPEG of a line's region of the page; fetched with the Authorization header an <img> cannot send. */
export async function fetchTextLineImage(uuid: string, headers: Record<string, string>, signal: AbortSignal): Promise<Blob> {
  const response = await fetch(apiUrl(`pim/pimsimpletextline/${encodeURIComponent(uuid)}/image`), { headers, signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.blob();
}
