import type { TermsAggregation } from '../query.js';
import { malformed, unsupported } from './errors.js';
import { resolveKeywordField } from './fields.js';
import { checkParams, describe, isObject, join, type JsonObject, readInteger, readObject, readString } from './values.js';

/** `aggs`/`aggregations`: terms aggregations (facets), the one kind search screens need here. */

const NOT_RUN = new Set([
  'filter', 'filters', 'range', 'date_range', 'ip_range', 'histogram', 'date_histogram', 'auto_date_histogram',
  'variable_width_histogram', 'composite', 'cardinality', 'avg', 'sum', 'min', 'max', 'stats', 'extended_stats',
  'value_count', 'top_hits', 'top_metrics', 'significant_terms', 'significant_text', 'nested', 'reverse_nested',
  'global', 'missing', 'multi_terms', 'rare_terms', 'sampler', 'diversified_sampler', 'geo_distance', 'geohash_grid',
  'geotile_grid', 'geo_bounds', 'geo_centroid', 'percentiles', 'percentile_ranks', 'median_absolute_deviation',
  'adjacency_matrix', 'children', 'parent', 'scripted_metric', 'weighted_avg', 'matrix_stats', 'string_stats',
  'boxplot', 't_test', 'rate', 'bucket_sort', 'bucket_selector', 'bucket_script', 'avg_bucket', 'sum_bucket',
  'max_bucket', 'min_bucket', 'stats_bucket', 'cumulative_sum', 'derivative', 'moving_fn', 'serial_diff',
  'categorize_text', 'frequent_item_sets', 'random_sampler', 'time_series',
]);

export function parseAggregations(body: unknown, at: string): Record<string, TermsAggregation> {
  const object = readObject(body, at, 'The aggregations');
  const result: Record<string, TermsAggregation> = {};
  for (const [name, definition] of Object.entries(object)) {
    const nameAt = join(at, name);
    if (/[[\]>]/.test(name)) {
      throw malformed(`The aggregation name "${name}" (at ${nameAt}) may not contain "[", "]" or ">".`, nameAt, 'illegal_argument_exception');
    }
    result[name] = parseAggregation(readObject(definition, nameAt, `The aggregation "${name}"`), nameAt);
  }
  return result;
}

function parseAggregation(definition: JsonObject, at: string): TermsAggregation {
  const types = Object.keys(definition).filter((key) => key !== 'meta');
  for (const sub of ['aggs', 'aggregations']) {
    if (definition[sub] !== undefined) throw unsupported('A sub-aggregation', join(at, sub));
  }
  if (types.length !== 1) {
    throw malformed(`The aggregation (at ${at}) must have exactly one type, such as "terms", not ${types.length} (${types.join(', ') || 'none'}).`, at);
  }
  const type = types[0] as string;
  if (type === 'terms') return parseTerms(readObject(definition.terms, join(at, 'terms'), 'The terms aggregation'), join(at, 'terms'));
  if (NOT_RUN.has(type)) throw unsupported(`The aggregation type "${type}"`, at);
  throw malformed(`"${type}" (at ${at}) is not an aggregation type Elasticsearch knows; this server runs "terms".`, at);
}

function parseTerms(object: JsonObject, at: string): TermsAggregation {
  checkParams(
    object,
    {
      field: 'use',
      size: 'use',
      order: 'use',
      min_doc_count: 'use',
      shard_size: 'ignore',
      shard_min_doc_count: 'ignore',
      show_term_doc_count_error: 'ignore',
      execution_hint: 'ignore',
      collect_mode: 'ignore',
      value_type: 'ignore',
      format: 'ignore',
      missing: 'unsupported',
      include: 'unsupported',
      exclude: 'unsupported',
      script: 'unsupported',
    },
    'terms aggregation',
    at,
  );
  if (object.field === undefined) throw malformed(`The terms aggregation (at ${at}) needs a "field".`, at);
  const field = resolveKeywordField(readString(object.field, join(at, 'field'), 'The field'), join(at, 'field'), 'a terms aggregation');
  const size = object.size === undefined ? 10 : readInteger(object.size, join(at, 'size'), 'The size', 1);
  const minDocCount = object.min_doc_count === undefined ? 1 : readInteger(object.min_doc_count, join(at, 'min_doc_count'), 'The min_doc_count', 0);
  return { kind: 'terms', field, size, order: readOrder(object.order, join(at, 'order')), minDocCount };
}

/** `{ "_count": "desc" }` (the default), `{ "_key": "asc" }` (`_term` is its old name), or an array of them. */
function readOrder(value: unknown, at: string): TermsAggregation['order'] {
  if (value === undefined) return { by: '_count', direction: 'desc' };
  const list = Array.isArray(value) ? value : [value];
  const orders = list.map((item, index) => readOneOrder(item, Array.isArray(value) ? join(at, index) : at));
  const [first, second] = orders;
  // A second criterion is only the tie-break Elasticsearch applies anyway (by key, ascending).
  if (!first || orders.length > 2 || (second && !(first.by === '_count' && second.by === '_key' && second.direction === 'asc'))) {
    throw unsupported('A terms aggregation order other than one of _count or _key (with _key ascending as tie-break)', at);
  }
  return first;
}

function readOneOrder(value: unknown, at: string): TermsAggregation['order'] {
  if (!isObject(value) || Object.keys(value).length !== 1) {
    throw malformed(`The order (at ${at}) must be an object such as {"_count": "desc"}, not ${describe(value)}.`, at);
  }
  const [key, direction] = Object.entries(value)[0] as [string, unknown];
  if (key !== '_count' && key !== '_key' && key !== '_term') throw unsupported(`Ordering buckets by "${key}"`, at);
  if (direction !== 'asc' && direction !== 'desc') {
    throw malformed(`The order direction (at ${join(at, key)}) must be "asc" or "desc", not ${describe(direction)}.`, join(at, key));
  }
  return { by: key === '_count' ? '_count' : '_key', direction };
}
