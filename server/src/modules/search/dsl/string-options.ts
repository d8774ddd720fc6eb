import type { FieldScoring } from '../query.js';
import { malformed, unsupported } from './errors.js';
import { ALL_TEXT_FIELDS, resolveFieldList } from './fields.js';
import type { StringQueryContext } from './string-clauses.js';
import { readBoost, readOperator } from './text.js';
import { describe, join, type JsonObject, type ParamSpec, readBoolean, readNumber, readStrings } from './values.js';

/** The parameters query_string and simple_query_string share. */
export const STRING_QUERY_PARAMS: ParamSpec = {
  query: 'use',
  fields: 'use',
  default_operator: 'use',
  minimum_should_match: 'use',
  lenient: 'use',
  boost: 'use',
  analyze_wildcard: 'ignore',
  analyzer: 'ignore',
  auto_generate_synonyms_phrase_query: 'ignore',
  fuzzy_max_expansions: 'ignore',
  fuzzy_prefix_length: 'ignore',
  fuzzy_transpositions: 'ignore',
  quote_field_suffix: 'ignore',
  _name: 'ignore',
};

export function readStringQueryOptions(
  body: JsonObject,
  at: string,
  fieldsKey: 'fields' | 'default_field',
): StringQueryContext & { boost: number } {
  const fieldsValue = body[fieldsKey];
  const fieldsAt = join(at, fieldsKey);
  return {
    // Without fields, Elasticsearch searches `index.query.default_field`, `*`: here the text fields.
    fields: fieldsValue === undefined ? ALL_TEXT_FIELDS : resolveFieldList(readStrings(fieldsValue, fieldsAt, `The ${fieldsKey}`), fieldsAt),
    operator: body.default_operator === undefined ? 'or' : readOperator(body.default_operator, join(at, 'default_operator')),
    scoring: readScoring(body.type, join(at, 'type')),
    tieBreaker: body.tie_breaker === undefined ? 0 : readNumber(body.tie_breaker, join(at, 'tie_breaker'), 'The tie_breaker'),
    lenient: body.lenient === undefined ? false : readBoolean(body.lenient, join(at, 'lenient'), 'lenient'),
    boost: readBoost(body.boost, join(at, 'boost')),
    at,
  };
}

function readScoring(value: unknown, at: string): FieldScoring {
  if (value === undefined) return 'best_fields';
  if (value === 'best_fields' || value === 'most_fields' || value === 'cross_fields') return value;
  if (value === 'phrase' || value === 'phrase_prefix' || value === 'bool_prefix') throw unsupported(`The type "${value}" of a query string`, at);
  throw malformed(`The type (at ${at}) must be best_fields, most_fields or cross_fields, not ${describe(value)}.`, at, 'illegal_argument_exception');
}
