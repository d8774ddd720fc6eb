import {
  msearchResponseSchema,
  SEARCH_ALL_INDICES,
  SEARCH_LANGUAGE_FACET_SIZE,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SUGGESTION_SIZE,
  SEARCH_TEXT_FIELDS,
  searchErrorSchema,
  termsEnumResponseSchema,
  type SearchResponse,
  type SearchSortKey,
  type TermsEnumRequest,
} from '@pim/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from './client';

/** What the search screen asks for; the screen keeps it in its address. */
export interface SearchState {
  /** As typed; blank finds everything. */
  q: string;
  /** The chosen languages (none: every language). */
  languages: string[];
  sort: SearchSortKey;
  /** 1-based. */
  page: number;
}

/**
 * The marks the server puts around a highlighted word. Control characters XML 1.0 forbids, so no
 * transcription (all come from XML) holds them, and no HTML: the screen splits on them and React
 * renders the pieces as text.
 */
export const HIGHLIGHT_PRE = '\u0002';
export const HIGHLIGHT_POST = '\u0003';

const SEARCH_PATH = `pim/elastic/${SEARCH_ALL_INDICES}`;

/** A query in double quotes is a phrase; otherwise every word must match, each with OCR-tolerant fuzziness. */
export function textQuery(q: string): object {
  const text = q.trim();
  if (text === '') return { match_all: {} };
  const phrase = /^"(.*[^\s].*)"$/s.exec(text);
  if (phrase) return { multi_match: { query: phrase[1]!.trim(), fields: [...SEARCH_TEXT_FIELDS], type: 'phrase' } };
  return { multi_match: { query: text, fields: [...SEARCH_TEXT_FIELDS], fuzziness: 'AUTO', operator: 'and' } };
}

function sortClauses(key: SearchSortKey) {
  return (SEARCH_SORTS.find((sort) => sort.key === key) ?? SEARCH_SORTS[0]).sort;
}

/** The search of one page of hits: the query, narrowed to the chosen languages, sorted, highlighted. */
export function hitsRequest(state: SearchState): object {
  const query = textQuery(state.q);
  return {
    query: state.languages.length > 0 ? { bool: { must: [query], filter: [{ terms: { language: state.languages } }] } } : query,
    sort: sortClauses(state.sort),
    from: (state.page - 1) * SEARCH_PAGE_SIZE,
    size: SEARCH_PAGE_SIZE,
    highlight: {
      pre_tags: [HIGHLIGHT_PRE],
      post_tags: [HIGHLIGHT_POST],
      fields: Object.fromEntries(SEARCH_TEXT_FIELDS.map((field) => [field, {}])),
    },
  };
}

/**
 * The language facet: the same query without the language filter, so choosing a language does
 * not make the others' counts vanish.
 */
export function facetRequest(state: SearchState): object {
  return {
    query: textQuery(state.q),
    size: 0,
    aggs: { language: { terms: { field: 'language', size: SEARCH_LANGUAGE_FACET_SIZE } } },
  };
}

/** `_msearch`'s body: a header line and a body line per search, each line ended. */
export function ndjson(searches: object[]): string {
  return searches.map((search) => `${JSON.stringify({})}\n${JSON.stringify(search)}\n`).join('');
}

export class SearchError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SearchError';
  }
}

/** What a refusal says: Elasticsearch's `error.reason`, else our `{ message }`, else the body. */
function reasonOf(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  try {
    const elastic = searchErrorSchema.safeParse(JSON.parse(error.bodyText));
    if (elastic.success) return elastic.data.error.reason;
  } catch {
    // Not JSON: the message below is the body itself.
  }
  return error.message;
}

function answerOf(response: SearchResponse | { error: { reason: string } }): SearchResponse {
  if ('error' in response) throw new SearchError(response.error.reason);
  return response;
}

export interface SearchResults {
  hits: SearchResponse['hits'];
  languages: { key: string; count: number }[];
}

async function runSearch(state: SearchState, signal: AbortSignal): Promise<SearchResults> {
  let answer;
  try {
    answer = await apiFetch(`${SEARCH_PATH}/_msearch`, {
      method: 'POST',
      body: ndjson([hitsRequest(state), facetRequest(state)]),
      contentType: 'application/x-ndjson',
      schema: msearchResponseSchema,
      signal,
      // The screen shows what went wrong in place of the hits.
      quiet: true,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new SearchError(reasonOf(error));
  }
  const [hits, facet] = answer.responses;
  if (!hits || !facet) throw new SearchError(`The server answered ${answer.responses.length} of 2 searches.`);
  const buckets = answerOf(facet).aggregations?.language?.buckets ?? [];
  return {
    hits: answerOf(hits).hits,
    // Images without a language have no bucket, or one with an empty key: only real values are offered.
    languages: buckets.filter((bucket) => String(bucket.key) !== '').map((bucket) => ({ key: String(bucket.key), count: bucket.doc_count })),
  };
}

export function useSearch(state: SearchState) {
  return useQuery({
    queryKey: ['search', state],
    queryFn: ({ signal }) => runSearch(state, signal),
    // The last hits stay while the next page or filter loads.
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The suggestions' rule: as the spec's pickers, only for a word longer than 2 characters. */
export function suggestsFor(word: string): boolean {
  return word.length > 2;
}

/** Indexed words of the text that begin with `word` (already debounced by the caller). */
export function useSuggestions(word: string) {
  const request: TermsEnumRequest = { field: 'text', string: word, size: SEARCH_SUGGESTION_SIZE };
  return useQuery({
    queryKey: ['search', 'suggestions', word],
    queryFn: ({ signal }) =>
      // Quiet: suggestions are a help, their failure is no reason to interrupt the person typing.
      apiFetch(`${SEARCH_PATH}/_terms_enum`, { method: 'POST', body: request, schema: termsEnumResponseSchema, signal, quiet: true }),
    enabled: suggestsFor(word),
    staleTime: 60_000,
    retry: false,
  });
}
