import type { Query } from '../query.js';
import { bool, MATCH_NONE, matchAll } from './build.js';
import { boosted } from './string-clauses.js';
import { malformed, unsupported } from './errors.js';
import { parseMatch, parseMatchBoolPrefix, parseMatchPhrase, parseMultiMatch } from './full-text.js';
import { parseQueryString } from './query-string.js';
import { parseSimpleQueryString } from './simple-query-string.js';
import { parseExists, parseFuzzy, parseIds, parsePrefix, parseRange, parseTerm, parseTerms, parseWildcard } from './term-level.js';
import { readBoost, resolveMinimumShouldMatch } from './text.js';
import { asList, checkParams, describe, isObject, join, type JsonObject, readNumber, readObject, singleKey } from './values.js';

/** The `query` of a request (and `post_filter`, and the clauses inside compound queries). */

type Parser = (body: unknown, at: string) => Query;

const PARSERS: Record<string, Parser> = {
  match_all: (body, at) => {
    const object = readObject(body, at, 'The match_all query');
    checkParams(object, { boost: 'use', _name: 'ignore' }, 'match_all query', at);
    return matchAll(readBoost(object.boost, join(at, 'boost')));
  },
  match_none: (body, at) => {
    checkParams(readObject(body, at, 'The match_none query'), { boost: 'ignore', _name: 'ignore' }, 'match_none query', at);
    return MATCH_NONE;
  },
  match: parseMatch,
  match_phrase: (body, at) => parseMatchPhrase(body, at, false),
  match_phrase_prefix: (body, at) => parseMatchPhrase(body, at, true),
  match_bool_prefix: parseMatchBoolPrefix,
  multi_match: parseMultiMatch,
  query_string: parseQueryString,
  simple_query_string: parseSimpleQueryString,
  bool: parseBool,
  constant_score: parseConstantScore,
  dis_max: parseDisMax,
  term: parseTerm,
  terms: parseTerms,
  range: parseRange,
  exists: parseExists,
  ids: parseIds,
  prefix: parsePrefix,
  wildcard: parseWildcard,
  fuzzy: parseFuzzy,
};

/** Query types of Elasticsearch this server does not run: refused by name, not as unknown. */
const NOT_RUN = new Set([
  'nested', 'has_child', 'has_parent', 'parent_id', 'geo_bounding_box', 'geo_distance', 'geo_grid', 'geo_polygon',
  'geo_shape', 'shape', 'script', 'script_score', 'more_like_this', 'function_score', 'boosting', 'pinned',
  'percolate', 'rank_feature', 'distance_feature', 'wrapper', 'regexp', 'terms_set', 'intervals', 'span_term',
  'span_near', 'span_or', 'span_not', 'span_first', 'span_containing', 'span_within', 'span_multi',
  'field_masking_span', 'combined_fields', 'knn', 'sparse_vector', 'text_expansion', 'weighted_tokens', 'semantic',
  'rule', 'type', 'common', 'query', 'filtered', 'and', 'or', 'not', 'indices', 'limit', 'fuzzy_like_this',
]);

export function parseQuery(body: unknown, at: string): Query {
  if (!isObject(body)) throw malformed(`The query (at ${at}) must be an object such as {"match": …}, not ${describe(body)}.`, at);
  const [type, inner] = singleKey(body, at, 'A query object');
  const innerAt = join(at, type);
  const parser = Object.hasOwn(PARSERS, type) ? PARSERS[type] : undefined;
  if (parser) return parser(inner, innerAt);
  if (NOT_RUN.has(type)) throw unsupported(`The query type "${type}"`, at);
  throw malformed(`"${type}" (at ${at}) is not a query type Elasticsearch knows. This server runs: ${Object.keys(PARSERS).join(', ')}.`, at);
}

const OCCURS = { must: 'must', should: 'should', filter: 'filter', must_not: 'mustNot' } as const;

function parseBool(body: unknown, at: string): Query {
  const object = readObject(body, at, 'The bool query');
  checkParams(
    object,
    { must: 'use', should: 'use', filter: 'use', must_not: 'use', minimum_should_match: 'use', boost: 'use', adjust_pure_negative: 'ignore', _name: 'ignore' },
    'bool query',
    at,
  );
  const parts = { must: [] as Query[], should: [] as Query[], filter: [] as Query[], mustNot: [] as Query[] };
  for (const [key, occur] of Object.entries(OCCURS)) {
    const value = object[key];
    if (value === undefined || value === null) continue;
    const list = asList(value);
    list.forEach((clause, index) => parts[occur].push(parseQuery(clause, Array.isArray(value) ? join(join(at, key), index) : join(at, key))));
  }
  const spec = object.minimum_should_match;
  const resolved = spec === undefined ? 0 : resolveMinimumShouldMatch(spec, parts.should.length, join(at, 'minimum_should_match'));
  // 0 leaves Lucene's rule: optional clauses without required ones still need one match.
  const minimum = resolved > 0 ? resolved : null;
  const boost = readBoost(object.boost, join(at, 'boost'));
  const clauses = parts.must.length + parts.should.length + parts.filter.length;
  // As Elasticsearch: an empty bool matches everything, and only must_not clauses match all other documents.
  if (clauses === 0 && parts.mustNot.length === 0) return matchAll(boost);
  if (clauses === 0) parts.must.push(matchAll());
  // One scoring clause alone is that clause (UIs nest bools deeply; the engine gets the plain query).
  const single = parts.must.length + parts.should.length === 1 && clauses === 1 && parts.mustNot.length === 0 && (minimum ?? 1) <= 1;
  if (single) return boosted([...parts.must, ...parts.should][0] as Query, boost);
  return bool(parts, minimum, boost);
}

/** Every match scores the boost: a match_all carries it beside the filter. */
function parseConstantScore(body: unknown, at: string): Query {
  const object = readObject(body, at, 'The constant_score query');
  checkParams(object, { filter: 'use', boost: 'use', _name: 'ignore' }, 'constant_score query', at);
  if (object.filter === undefined) throw malformed(`The constant_score query (at ${at}) needs a "filter".`, at);
  const filter = parseQuery(object.filter, join(at, 'filter'));
  return bool({ must: [matchAll(readBoost(object.boost, join(at, 'boost')))], filter: [filter] });
}

/**
 * dis_max scores a document by its best clause plus tie_breaker times the others. The model has no
 * best-of for whole queries, so the clauses become should clauses whose scores add up: the same
 * documents match, ranked a little differently when several clauses match one document.
 */
function parseDisMax(body: unknown, at: string): Query {
  const object: JsonObject = readObject(body, at, 'The dis_max query');
  checkParams(object, { queries: 'use', tie_breaker: 'use', boost: 'use', _name: 'ignore' }, 'dis_max query', at);
  if (!Array.isArray(object.queries)) throw malformed(`The dis_max query (at ${at}) needs "queries", an array of queries.`, at);
  if (object.tie_breaker !== undefined) readNumber(object.tie_breaker, join(at, 'tie_breaker'), 'The tie_breaker');
  const queries = object.queries.map((clause, index) => parseQuery(clause, join(join(at, 'queries'), index)));
  return queries.length === 0 ? MATCH_NONE : bool({ should: queries }, 1, readBoost(object.boost, join(at, 'boost')));
}
