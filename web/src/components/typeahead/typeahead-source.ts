import { typeaheadPage } from '@pim/contract';
import { z } from 'zod';
import { apiFetch, type QueryValue } from '../../api/client';

/** The spec's picker rule: search when the term is empty (show the first options) or longer than 2 characters. */
export function shouldSearch(term: string): boolean {
  return term.length === 0 || term.length > 2;
}

export interface TypeaheadChunk<T> {
  items: T[];
  /** True when the server pages its answers and this page was full: there may be more. */
  hasMore: boolean;
}

interface FetchOptions {
  onlyOwnData: boolean;
  term: string;
  skip: number;
  /** Extra parameters of this picker, e.g. the set whose images it offers. */
  params?: Record<string, QueryValue>;
  signal?: AbortSignal;
}

/** Pickers accept either a plain list or a page `{results, pageSize}` (spec part 1 §7). */
export async function fetchTypeaheadChunk<T>(
  url: string,
  itemSchema: z.ZodType<T>,
  { onlyOwnData, term, skip, params, signal }: FetchOptions,
): Promise<TypeaheadChunk<T>> {
  const response = await apiFetch(url, {
    query: { ...params, onlyOwnData, filter: term, skip: skip > 0 ? skip : undefined },
    schema: z.union([z.array(itemSchema), typeaheadPage(itemSchema)]),
    signal,
  });
  if (Array.isArray(response)) return { items: response, hasMore: false };
  return { items: response.results, hasMore: response.pageSize > 0 && response.results.length >= response.pageSize };
}
