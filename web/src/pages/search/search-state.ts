import { SEARCH_MAX_RESULT_WINDOW, SEARCH_PAGE_SIZE, SEARCH_SORTS, type SearchSortKey } from '@pim/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SearchState } from '../../api/search';

/** The last page a search can show: Elasticsearch answers no further than its result window. */
export const LAST_PAGE = Math.floor(SEARCH_MAX_RESULT_WINDOW / SEARCH_PAGE_SIZE);

const DEFAULT_SORT = SEARCH_SORTS[0].key;

function isSortKey(value: string | null): value is SearchSortKey {
  return SEARCH_SORTS.some((sort) => sort.key === value);
}

/** The search as the address says it (`?q=&lang=&sort=&page=`); what it cannot read is the default. */
export function readSearchState(params: URLSearchParams): SearchState {
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    languages: [...new Set(params.getAll('lang').filter((lang) => lang !== ''))],
    sort: isSortKey(sort) ? sort : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, LAST_PAGE) : 1,
  };
}

/** The address of a search, defaults left out, so a shared link says only what was chosen. */
export function writeSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q !== '') params.set('q', state.q);
  for (const lang of state.languages) params.append('lang', lang);
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

export interface SearchActions {
  search: (q: string) => void;
  toggleLanguage: (language: string, chosen: boolean) => void;
  setSort: (sort: SearchSortKey) => void;
  setPage: (page: number) => void;
}

/**
 * The search lives in the address, each change a new history entry, so Back returns to the
 * last search and a link shows the same hits. A new query, filter or sort starts at page 1.
 */
export function useSearchState(): [SearchState, SearchActions] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const state = useMemo(() => readSearchState(new URLSearchParams(key)), [key]);
  const change = useCallback(
    (edit: (current: SearchState) => SearchState) => setParams((current) => writeSearchState(edit(readSearchState(current)))),
    [setParams],
  );
  const actions = useMemo<SearchActions>(
    () => ({
      search: (q) => change((s) => ({ ...s, q: q.trim(), page: 1 })),
      toggleLanguage: (language, chosen) =>
        change((s) => ({
          ...s,
          languages: chosen ? [...new Set([...s.languages, language])] : s.languages.filter((l) => l !== language),
          page: 1,
        })),
      setSort: (sort) => change((s) => ({ ...s, sort, page: 1 })),
      setPage: (page) => change((s) => ({ ...s, page })),
    }),
    [change],
  );
  return [state, actions];
}
