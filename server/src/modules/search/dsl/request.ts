import { SEARCH_MAX_RESULT_WINDOW, SEARCH_TOTAL_HITS_CAP, searchSourceSchema } from '@pim/contract';
import type { Query, SearchRequest, SourceFilter } from '../query.js';
import { parseAggregations } from './aggregations.js';
import { matchAll } from './build.js';
import { malformed, unsupported } from './errors.js';
import { patternMatches } from './fields.js';
import { parseHighlight } from './highlight.js';
import { parseQuery } from './queries.js';
import { parseSort } from './sort.js';
import { checkParams, describe, isObject, readBoolean, readInteger, readStrings } from './values.js';

/** An Elasticsearch `_search` body as the engine's SearchRequest. */

const BODY = {
  query: 'use',
  post_filter: 'use',
  from: 'use',
  size: 'use',
  sort: 'use',
  track_scores: 'use',
  track_total_hits: 'use',
  _source: 'use',
  aggs: 'use',
  aggregations: 'use',
  highlight: 'use',
  explain: 'use',
  profile: 'use',
  timeout: 'ignore',
  stored_fields: 'ignore',
  docvalue_fields: 'ignore',
  version: 'ignore',
  seq_no_primary_term: 'ignore',
  preference: 'ignore',
  search_type: 'ignore',
  request_cache: 'ignore',
  allow_partial_search_results: 'ignore',
  batched_reduce_size: 'ignore',
  ccs_minimize_roundtrips: 'ignore',
  stats: 'ignore',
  suggest: 'unsupported',
  collapse: 'unsupported',
  search_after: 'unsupported',
  rescore: 'unsupported',
  knn: 'unsupported',
  pit: 'unsupported',
  slice: 'unsupported',
  script_fields: 'unsupported',
  runtime_mappings: 'unsupported',
  indices_boost: 'unsupported',
  min_score: 'unsupported',
  terminate_after: 'unsupported',
  fields: 'unsupported',
  ext: 'unsupported',
  retriever: 'unsupported',
  rank: 'unsupported',
  sub_searches: 'unsupported',
  scroll: 'unsupported',
} as const;

export function parseSearchRequest(body: unknown): SearchRequest {
  const object = body === undefined || body === null ? {} : body;
  if (!isObject(object)) throw malformed(`The search request body must be a JSON object, not ${describe(body)}.`, '', 'x_content_parse_exception');
  checkParams(object, BODY, 'search request', '');
  for (const flag of ['explain', 'profile'] as const) {
    if (object[flag] !== undefined && readBoolean(object[flag], flag, flag)) throw unsupported(`"${flag}": true`, flag);
  }
  if (object.aggs !== undefined && object.aggregations !== undefined) {
    throw malformed('The search request has both "aggs" and "aggregations"; give one.', '', 'illegal_argument_exception');
  }
  const from = object.from === undefined ? 0 : readInteger(object.from, 'from', 'The from', 0);
  const size = object.size === undefined ? 10 : readInteger(object.size, 'size', 'The size', 0);
  if (from + size > SEARCH_MAX_RESULT_WINDOW) {
    throw malformed(
      `Result window is too large: from + size must be at most ${SEARCH_MAX_RESULT_WINDOW} but was ${from + size}. Narrow the search or page less deep.`,
      'from',
      'illegal_argument_exception',
    );
  }
  const query: Query = object.query === undefined || object.query === null ? matchAll() : parseQuery(object.query, 'query');
  const sort = object.sort === undefined ? [] : parseSort(object.sort, 'sort');
  const trackScores = object.track_scores === undefined ? false : readBoolean(object.track_scores, 'track_scores', 'track_scores');
  const aggregations = object.aggs ?? object.aggregations;
  return {
    query,
    from,
    size,
    sort,
    trackScores: trackScores || sort.length === 0 || sort.some((clause) => clause.field === '_score'),
    trackTotalHits: readTrackTotalHits(object.track_total_hits),
    source: object._source === undefined ? { includes: null, excludes: [] } : parseSource(object._source),
    aggregations: aggregations === undefined ? {} : parseAggregations(aggregations, object.aggs === undefined ? 'aggregations' : 'aggs'),
    postFilter: object.post_filter === undefined || object.post_filter === null ? null : parseQuery(object.post_filter, 'post_filter'),
    highlight: object.highlight === undefined ? null : parseHighlight(object.highlight, query, 'highlight'),
  };
}

/** true: exact; a number: exact up to it; false (or -1): no counting, given as 0. Default 10,000. */
function readTrackTotalHits(value: unknown): number | true {
  if (value === undefined) return SEARCH_TOTAL_HITS_CAP;
  if (typeof value === 'boolean' || value === 'true' || value === 'false') return readBoolean(value, 'track_total_hits', 'track_total_hits') || 0;
  const count = readInteger(value, 'track_total_hits', 'track_total_hits', -1);
  return Math.max(0, count);
}

const SOURCE_FIELDS = Object.keys(searchSourceSchema.shape);

/** `_source`: true/false, a field or pattern, a list of them, or `{ includes, excludes }`. */
function parseSource(value: unknown): SourceFilter {
  if (value === true || value === false) return value ? { includes: null, excludes: [] } : false;
  if (!isObject(value)) {
    const names = readStrings(value, '_source', 'The _source');
    return { includes: names.length === 0 ? null : resolve(names), excludes: [] };
  }
  checkParams(value, { includes: 'use', include: 'use', excludes: 'use', exclude: 'use' }, '_source filter', '_source');
  const includes = value.includes ?? value.include;
  const excludes = value.excludes ?? value.exclude;
  const included = includes === undefined ? [] : readStrings(includes, '_source.includes', 'The _source includes');
  return {
    includes: included.length === 0 ? null : resolve(included),
    excludes: excludes === undefined ? [] : resolve(readStrings(excludes, '_source.excludes', 'The _source excludes')),
  };
}

/** Names and patterns as the `_source` fields they select; unknown names select nothing, as in Elasticsearch. */
const resolve = (patterns: string[]) => SOURCE_FIELDS.filter((field) => patterns.some((pattern) => patternMatches(pattern, field)));
