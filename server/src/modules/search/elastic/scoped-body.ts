import { AppError } from '../../../platform/errors.js';
import type { SearchScope } from '../query.js';
import type { ElasticErrorBody } from './client.js';

/**
 * What a search body may hold when it goes to the cluster. Everything here stays inside the query
 * PIM wraps around it; what could reach past it (other documents, other indices, the whole index's
 * vocabulary) is refused, as is what search UIs never send.
 */
const ALLOWED_KEYS = new Set([
  'query',
  'from',
  'size',
  'sort',
  'aggs',
  'aggregations',
  'post_filter',
  'highlight',
  '_source',
  'track_total_hits',
  'track_scores',
  'search_after',
  'min_score',
  'timeout',
  'terminate_after',
  'explain',
  'version',
  'seq_no_primary_term',
  'stored_fields',
  'docvalue_fields',
  'fields',
  'collapse',
  'rescore',
]);

/** Constructs that read beyond the documents the query selects, wherever they stand, and why. */
const REACHING_CONSTRUCTS: Record<string, string> = {
  global: 'a global aggregation counts every document of the index',
  significant_terms: 'its background counts cover every document of the index',
  significant_text: 'its background counts cover every document of the index',
  more_like_this: 'it reads documents named by index and id',
  percolate: 'it reads documents named by index and id',
  has_child: 'PIM’s documents have no parents or children',
  has_parent: 'PIM’s documents have no parents or children',
  parent_id: 'PIM’s documents have no parents or children',
  indexed_shape: 'it reads a shape from another document',
  suggest: 'suggesters read the vocabulary of the whole index',
  knn: 'a kNN search is not narrowed by the query',
};

type Json = Record<string, unknown>;

/** A 400 in Elasticsearch's error shape (`details.elastic`), so the route can answer as the cluster would. */
export function refusedRequest(reason: string, type = 'illegal_argument_exception'): AppError {
  const elastic: ElasticErrorBody = { error: { root_cause: [{ type, reason }], type, reason }, status: 400 };
  return new AppError(400, 'search_request_refused', reason, { elastic });
}

/**
 * The body with its query narrowed to the scope's sets: `{ bool: { must: [<query>], filter:
 * [<the sets>] } }`, everything else as the caller wrote it (aggregations see only the narrowed
 * hits). An empty list of sets matches nothing: a terms query without values matches no document.
 */
export function scopedSearchBody(scope: SearchScope, body: unknown): Json {
  if (body !== undefined && body !== null && !isObject(body)) throw refusedRequest('A search body must be a JSON object.', 'parsing_exception');
  const request: Json = { ...(body ?? {}) };
  for (const key of Object.keys(request)) {
    if (key in REACHING_CONSTRUCTS) throw refusedRequest(`Searching through PIM does not support [${key}]: ${REACHING_CONSTRUCTS[key]}.`);
    if (!ALLOWED_KEYS.has(key)) throw refusedRequest(`Searching through PIM does not support [${key}] in a search body.`);
  }
  checkConstructs(request);
  if (scope.setIds === null) return request;
  const filter = { terms: { imageSetUuid: scope.setIds } };
  return { ...request, query: { bool: { must: [request.query ?? { match_all: {} }], filter: [filter] } } };
}

/** Refuses, anywhere in a query or aggregation, a construct of REACHING_CONSTRUCTS or a terms lookup. */
export function checkConstructs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) checkConstructs(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key in REACHING_CONSTRUCTS) throw refusedRequest(`Searching through PIM does not support [${key}]: ${REACHING_CONSTRUCTS[key]}.`);
    if (key === 'terms' && isTermsLookup(value)) {
      throw refusedRequest('Searching through PIM does not support a terms lookup (terms from another document): give the values themselves.');
    }
    if ((key === 'aggs' || key === 'aggregations') && isObject(value)) {
      // The keys here are names the caller chose ("global" is a fine name); only the definitions count.
      for (const definition of Object.values(value)) checkConstructs(definition);
    } else {
      checkConstructs(value);
    }
  }
}

/** `terms: { field: { index, id, path } }` fetches its values from a document of any index. */
function isTermsLookup(value: unknown): boolean {
  return isObject(value) && Object.values(value).some((v) => isObject(v) && 'id' in v && 'path' in v);
}

/**
 * What the cluster would answer for a scope without indices, without asking it: no hits, and each
 * aggregation asked for with no buckets.
 */
export function emptySearchResponse(body: Json): Json {
  const aggs = (body.aggs ?? body.aggregations) as Json | undefined;
  return {
    took: 0,
    timed_out: false,
    _shards: { total: 0, successful: 0, skipped: 0, failed: 0 },
    hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
    ...(isObject(aggs) && {
      aggregations: Object.fromEntries(
        Object.keys(aggs).map((name) => [name, { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] }]),
      ),
    }),
  };
}

/** Every `_index` of a response (hits, inner hits, top_hits) named as our callers name it. */
export function renameIndices<T>(node: T, rename: (clusterName: string) => string): T {
  if (Array.isArray(node)) return node.map((item: unknown) => renameIndices(item, rename)) as T;
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '_index' && typeof value === 'string' ? rename(value) : renameIndices(value, rename);
  }
  return out as T;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
