import type { SearchHit, SearchResponse } from '@pim/contract';
import { HIGHLIGHT_POST, HIGHLIGHT_PRE } from '../../api/search';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const SET = 'b0000000-0000-4000-8000-000000000001';

export function imageId(n: number): string {
  return `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** A word as the server marks it in a highlight fragment. */
export const mark = (word: string) => `${HIGHLIGHT_PRE}${word}${HIGHLIGHT_POST}`;

/** A hit as the engine answers it: one image of the set, the matched line among its fields. */
export function hitFixture(n: number, overrides: Partial<SearchHit> = {}): SearchHit {
  const uuid = imageId(n);
  return {
    _index: 'charters',
    _id: uuid,
    _score: 1.5,
    _source: {
      imageUuid: uuid,
      imageSetUuid: [SET],
      imageSet: ['Charters of Utrecht'],
      index: 'charters',
      label: `f. ${n}r`,
      text: 'Jtem ſo hat der herr',
      htr: '',
      persons: [],
      language: 'deu',
      pagenumber: n,
      thumbnail: `http://localhost/api/pim/documentimage/${uuid}/thumbnail`,
    },
    fields: { pim_lines: [{ id: `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`, text: 'Jtem ſo hat', box: { x: 10, y: 20, w: 300, h: 40 } }] },
    ...overrides,
  };
}

export function hitsAnswer(hits: SearchHit[], total = hits.length, relation: 'eq' | 'gte' = 'eq'): SearchResponse {
  return { took: 3, timed_out: false, hits: { total: { value: total, relation }, max_score: 1.5, hits } };
}

export function facetAnswer(buckets: { key: string; doc_count: number }[]): SearchResponse {
  return { took: 1, timed_out: false, hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] }, aggregations: { language: { buckets, sum_other_doc_count: 0 } } };
}

export interface SentSearch {
  contentType: string | null;
  /** The NDJSON's lines, parsed. */
  lines: Record<string, unknown>[];
}

interface SearchServer {
  /** The `_msearch` answer to the searches sent (hits, then facet). */
  answer: (hits: Record<string, unknown>, facet: Record<string, unknown>) => Response | unknown[];
  terms?: (request: { field: string; string: string; size: number }) => string[];
}

/** A signed-in user and the search API: what the screen sent, in order. */
export function searchServer({ answer, terms = () => [] }: SearchServer) {
  setToken('tok');
  const sent: SentSearch[] = [];
  const suggested: unknown[] = [];
  const fetchMock = stubFetch(
    signedInHandler(['AUTHENTICATED'], async (url, init) => {
      if (url.pathname === '/api/pim/elastic/_all/_msearch' && init?.method === 'POST') {
        const lines = String(init.body).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
        sent.push({ contentType: new Headers(init.headers).get('Content-Type'), lines });
        const result = answer(lines[1]!, lines[3]!);
        return result instanceof Response ? result : jsonResponse({ took: 4, responses: result });
      }
      if (url.pathname === '/api/pim/elastic/_all/_terms_enum' && init?.method === 'POST') {
        const request = JSON.parse(String(init.body)) as { field: string; string: string; size: number };
        suggested.push(request);
        return jsonResponse({ terms: terms(request), complete: true, _shards: { total: 1, successful: 1, failed: 0 } });
      }
      if (url.pathname.endsWith('/thumbnail')) return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
  return { sent, suggested, fetchMock };
}
