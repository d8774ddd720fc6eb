import {
  DISTANCE_ALGORITHMS,
  type ConfusionMatrix,
  type NamedRef,
  type SiameseSnippetResult,
  type SimilarityModel,
} from '@pim/contract';
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const WRITERS_MODEL = 'a0000000-0000-4000-8000-0000000000aa';
export const BUILTIN: SimilarityModel = { id: 'builtin', label: 'Built-in handwriting descriptor', snippets: 40, dimensions: 64 };
export const WRITERS: SimilarityModel = { id: WRITERS_MODEL, label: 'Writers of Utrecht', snippets: 12, dimensions: 20 };

export const CHARTERS: NamedRef = { uuid: 'b0000000-0000-4000-8000-000000000001', name: 'Charters of Utrecht' };
export const LETTERS: NamedRef = { uuid: 'b0000000-0000-4000-8000-000000000002', name: 'Letters 1850' };
export const FOLIO_1: NamedRef = { uuid: 'c0000000-0000-4000-8000-000000000001', name: 'f. 1r' };
export const FOLIO_2: NamedRef = { uuid: 'c0000000-0000-4000-8000-000000000002', name: 'f. 2v' };
export const DATE_FIELD: NamedRef = { uuid: 'f0000000-0000-4000-8000-000000000001', name: 'Year' };

export const snippetId = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const lineId = (n: number) => `e0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Snippet `n` of `image`: its crop is a IIIF region of our own server. */
export function snippetFixture(n: number, image: NamedRef = FOLIO_1, overrides: Partial<SiameseSnippetResult> = {}): SiameseSnippetResult {
  const region = { x: 10, y: 20 + 50 * n, w: 300, h: 40 };
  return {
    uuid: snippetId(n),
    distance: 0,
    cosineFromTarget: null,
    tag: null,
    documentImageId: image.uuid,
    documentOCRResultLineUUID: lineId(n),
    imageLocation: `${window.location.origin}/iiif/3/${image.uuid}/${region.x},${region.y},${region.w},${region.h}/max/0/default.jpg`,
    documentImageLabel: image.name,
    lineText: `line ${n} of ${image.name}`,
    region,
    model: 'builtin',
    ...overrides,
  };
}

export function confusionMatrixFixture(overrides: Partial<ConfusionMatrix> = {}): ConfusionMatrix {
  return {
    uuid: 'a1000000-0000-4000-8000-000000000001',
    created: '2024-06-01T09:00:00.000Z',
    report: '              precision    recall  f1-score   support\n\n        Anna       0.80      0.67      0.73         6\n',
    model: WRITERS_MODEL,
    modelLabel: 'Writers of Utrecht',
    imageSet: CHARTERS,
    labels: ['Anna', 'Bert'],
    matrix: [
      [4, 2],
      [1, 3],
    ],
    accuracy: 0.7,
    snippets: 10,
    ...overrides,
  };
}

/** What a page asked of the server: method, path and query, and the parsed JSON body of a POST. */
export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

type Answer = (request: SentRequest) => unknown;

export interface SimilarityServerOptions {
  models?: SimilarityModel[];
  /** Answers by route below `/api/pim/`, e.g. 'siamese/find' or 'POST siamese/findByModel'. */
  answers?: Record<string, unknown | Answer>;
}

const page = (results: unknown[]) => ({ results, pageSize: 20 });

/** The pickers' answers: the sets, their images, the metadata fields and their values, of any model. */
function pickerAnswer(path: string): unknown {
  if (/^siamese\/[^/]+\/imagesets\/autocomplete$/.test(path)) return page([CHARTERS, LETTERS]);
  const images = /^siamese\/[^/]+\/([^/]+)\/images\/autocomplete$/.exec(path);
  if (images) return page(images[1] === CHARTERS.uuid ? [FOLIO_1] : [FOLIO_2]);
  if (/^siamese\/[^/]+\/metadatafields\/autocomplete$/.test(path)) return page([DATE_FIELD]);
  if (/^siamese\/[^/]+\/[^/]+\/metadataFieldValues\/autocomplete$/.test(path)) return page([{ uuid: '1450', name: '1450' }]);
  return undefined;
}

/**
 * A signed-in user and the similarity API: every request is recorded; each route answers what
 * `answers` gives it (a value, or a function of the request), the models and pickers a fixed set.
 */
export function similarityServer({ models = [BUILTIN, WRITERS], answers = {} }: SimilarityServerOptions = {}) {
  setToken('tok');
  const sent: SentRequest[] = [];
  const thumbnails: { url: string; authorization: string | null }[] = [];
  const fetchMock = stubFetch(
    signedInHandler(['AUTHENTICATED'], (url, init) => {
      const method = init?.method ?? 'GET';
      if (url.pathname.startsWith('/iiif/3/') || /^\/api\/pim\/pimsimpletextline\/[^/]+\/image$/.test(url.pathname)) {
        thumbnails.push({ url: url.href, authorization: new Headers(init?.headers).get('Authorization') });
        return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
      }
      const path = url.pathname.replace(/^\/api\/pim\//, '');
      const request: SentRequest = {
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      sent.push(request);
      const answer = answers[method === 'GET' ? path : `${method} ${path}`];
      if (answer !== undefined) {
        const value = typeof answer === 'function' ? (answer as Answer)(request) : answer;
        return value instanceof Response ? value : jsonResponse(value);
      }
      if (path === 'siamese/models') return jsonResponse(models);
      if (path === 'siamese/distancealgorithms') return jsonResponse(DISTANCE_ALGORITHMS);
      const picked = pickerAnswer(path);
      if (picked !== undefined) return jsonResponse(picked);
      return jsonResponse({ error: 'not_found', message: `No route ${method} ${path}` }, 404);
    }),
  );
  /** The requests sent to one route, e.g. 'siamese/find' or 'POST siamese/compareimagesnippets'. */
  const to = (route: string) => sent.filter((request) => (request.method === 'GET' ? request.path : `${request.method} ${request.path}`) === route);
  return { sent, to, thumbnails, fetchMock };
}

/** Chooses `option` in the picker or select labelled `label`. */
export async function pick(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}
