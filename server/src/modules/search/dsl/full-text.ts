import type { FieldScoring, FieldWeight, Fuzziness, Query, QueryWord } from '../query.js';
import { MATCH_NONE, matchAll, overFields, textQuery } from './build.js';
import { malformed } from './errors.js';
import { ALL_TEXT_FIELDS, type FieldSet, keywordValue, resolveField, resolveFieldList } from './fields.js';
import {
  countTerms,
  plainWord,
  readBoost,
  readFuzziness,
  readOperator,
  readQueryText,
  resolveMinimumShouldMatch,
  splitLastTerm,
} from './text.js';
import {
  checkParams,
  describe,
  isObject,
  join,
  type JsonObject,
  type ParamSpec,
  readBoolean,
  readInteger,
  readNumber,
  readStrings,
  singleKey,
} from './values.js';

/** match, match_phrase, match_phrase_prefix, match_bool_prefix and multi_match. */

const COMMON: ParamSpec = { query: 'use', boost: 'use', analyzer: 'ignore', _name: 'ignore' };
const FUZZY: ParamSpec = { fuzziness: 'use', prefix_length: 'ignore', max_expansions: 'ignore', fuzzy_transpositions: 'ignore', fuzzy_rewrite: 'ignore' };
const MATCH: ParamSpec = {
  ...COMMON,
  ...FUZZY,
  operator: 'use',
  minimum_should_match: 'use',
  zero_terms_query: 'use',
  lenient: 'use',
  auto_generate_synonyms_phrase_query: 'ignore',
  cutoff_frequency: 'ignore',
};
const PHRASE: ParamSpec = { ...COMMON, slop: 'use', zero_terms_query: 'use', max_expansions: 'ignore' };
const BOOL_PREFIX: ParamSpec = { ...COMMON, ...FUZZY, operator: 'use', minimum_should_match: 'use' };
const MULTI_MATCH: ParamSpec = {
  ...MATCH,
  fields: 'use',
  type: 'use',
  tie_breaker: 'use',
  slop: 'use',
  rewrite: 'ignore',
};

/** `{ field: "text" }` or `{ field: { query: "text", … } }`. */
function fieldAndOptions(body: unknown, construct: string, at: string): { name: string; options: JsonObject; at: string } {
  if (!isObject(body)) throw malformed(`The ${construct} query (at ${at}) must be an object naming a field, not ${describe(body)}.`, at);
  if (Object.keys(body).length > 1) {
    throw malformed(
      `The ${construct} query (at ${at}) names several fields (${Object.keys(body).join(', ')}); it takes one: use multi_match to search several.`,
      at,
    );
  }
  const [name, value] = singleKey(body, at, `The ${construct} query`);
  return { name, options: isObject(value) ? value : { query: value }, at: join(at, name) };
}

/** What a query whose text has no terms matches (`zero_terms_query`). */
function zeroTerms(options: JsonObject, at: string): Query {
  const value = options.zero_terms_query ?? 'none';
  if (value === 'none') return MATCH_NONE;
  if (value === 'all') return matchAll();
  throw malformed(`The zero_terms_query (at ${join(at, 'zero_terms_query')}) must be "none" or "all", not ${describe(value)}.`, at);
}

const readSlop = (options: JsonObject, at: string) => (options.slop === undefined ? 0 : readInteger(options.slop, join(at, 'slop'), 'The slop', 0));
const readLenient = (options: JsonObject, at: string) =>
  options.lenient === undefined ? false : readBoolean(options.lenient, join(at, 'lenient'), 'lenient');
const readFuzzinessOption = (options: JsonObject, at: string): Fuzziness =>
  options.fuzziness === undefined ? 0 : readFuzziness(options.fuzziness, join(at, 'fuzziness'));

/** On a keyword field the match queries compare the whole text, as a term query does. */
function keywordMatch(name: string, text: string, options: JsonObject, at: string): Query | null {
  const resolved = resolveField(name, at);
  if (resolved.kind === 'text') return null;
  const value = keywordValue(resolved.field, text, at, { lenient: readLenient(options, at) });
  if (value === null) return MATCH_NONE;
  return { kind: 'terms', field: resolved.field, values: [value], boost: readBoost(options.boost, join(at, 'boost')) };
}

interface TermOptions {
  operator: 'or' | 'and';
  minimumShouldMatch: number | null;
}

function readTermOptions(options: JsonObject, text: string, at: string): TermOptions {
  const operator = options.operator === undefined ? 'or' : readOperator(options.operator, join(at, 'operator'));
  const spec = options.minimum_should_match;
  const minimumShouldMatch = spec === undefined ? null : resolveMinimumShouldMatch(spec, countTerms(text), join(at, 'minimum_should_match'));
  return { operator, minimumShouldMatch };
}

/** match_bool_prefix's words: the text before the last term (fuzzy if asked) and the last term as a prefix. */
function boolPrefixWords(text: string, fuzziness: Fuzziness): QueryWord[] {
  const split = splitLastTerm(text);
  if (!split) return [];
  const head = split.head.trim() ? [plainWord(split.head, fuzziness)] : [];
  return [...head, { text: split.last, form: 'prefix', fuzziness: 0 }];
}

export function parseMatch(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldAndOptions(body, 'match', at);
  checkParams(options, MATCH, 'match query', fieldAt);
  const text = readQueryText(options.query, fieldAt, 'match query');
  const keyword = keywordMatch(name, text, options, fieldAt);
  if (keyword) return keyword;
  if (countTerms(text) === 0) return zeroTerms(options, fieldAt);
  const field = resolveField(name, fieldAt).field as FieldWeight['field'];
  return textQuery([{ field, boost: 1 }], [plainWord(text, readFuzzinessOption(options, fieldAt))], {
    ...readTermOptions(options, text, fieldAt),
    boost: readBoost(options.boost, join(fieldAt, 'boost')),
  });
}

export function parseMatchPhrase(body: unknown, at: string, lastIsPrefix: boolean): Query {
  const construct = lastIsPrefix ? 'match_phrase_prefix' : 'match_phrase';
  const { name, options, at: fieldAt } = fieldAndOptions(body, construct, at);
  checkParams(options, PHRASE, `${construct} query`, fieldAt);
  const text = readQueryText(options.query, fieldAt, `${construct} query`);
  const keyword = keywordMatch(name, text, options, fieldAt);
  if (keyword) return keyword;
  if (countTerms(text) === 0) return zeroTerms(options, fieldAt);
  const field = resolveField(name, fieldAt).field as FieldWeight['field'];
  return phrase([{ field, boost: 1 }], text, readSlop(options, fieldAt), lastIsPrefix, readBoost(options.boost, join(fieldAt, 'boost')));
}

const phrase = (fields: FieldWeight[], text: string, slop: number, lastIsPrefix: boolean, boost: number): Query => ({
  kind: 'phrase',
  fields,
  text,
  slop,
  lastIsPrefix,
  boost,
});

export function parseMatchBoolPrefix(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldAndOptions(body, 'match_bool_prefix', at);
  checkParams(options, BOOL_PREFIX, 'match_bool_prefix query', fieldAt);
  const text = readQueryText(options.query, fieldAt, 'match_bool_prefix query');
  const keyword = keywordMatch(name, text, options, fieldAt);
  if (keyword) return keyword;
  const words = boolPrefixWords(text, readFuzzinessOption(options, fieldAt));
  if (words.length === 0) return MATCH_NONE;
  const field = resolveField(name, fieldAt).field as FieldWeight['field'];
  return textQuery([{ field, boost: 1 }], words, {
    ...readTermOptions(options, text, fieldAt),
    boost: readBoost(options.boost, join(fieldAt, 'boost')),
  });
}

const MULTI_MATCH_TYPES = ['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'] as const;
type MultiMatchType = (typeof MULTI_MATCH_TYPES)[number];

export function parseMultiMatch(body: unknown, at: string): Query {
  if (!isObject(body)) throw malformed(`The multi_match query (at ${at}) must be an object, not ${describe(body)}.`, at);
  checkParams(body, MULTI_MATCH, 'multi_match query', at);
  const text = readQueryText(body.query, at, 'multi_match query');
  const type = readMultiMatchType(body.type, at);
  if (body.fuzziness !== undefined && (type === 'cross_fields' || type === 'phrase' || type === 'phrase_prefix')) {
    const message = `The multi_match query (at ${at}) of type ${type} cannot be fuzzy; Elasticsearch refuses fuzziness for it too.`;
    throw malformed(message, at, 'illegal_argument_exception');
  }
  const fields: FieldSet =
    body.fields === undefined ? ALL_TEXT_FIELDS : resolveFieldList(readStrings(body.fields, join(at, 'fields'), 'The fields'), join(at, 'fields'));
  const boost = readBoost(body.boost, join(at, 'boost'));
  const lenient = readLenient(body, at);
  const phraseType = type === 'phrase' || type === 'phrase_prefix';
  const words = type === 'bool_prefix' ? boolPrefixWords(text, readFuzzinessOption(body, at)) : [plainWord(text, readFuzzinessOption(body, at))];
  if (countTerms(text) === 0) return zeroTerms(body, at);
  const tieBreaker = body.tie_breaker === undefined ? (type === 'most_fields' ? 1 : 0) : readNumber(body.tie_breaker, join(at, 'tie_breaker'), 'The tie_breaker');
  const forText = (textFields: FieldWeight[]): Query =>
    phraseType
      ? phrase(textFields, text, readSlop(body, at), type === 'phrase_prefix', boost)
      : textQuery(textFields, words, {
          ...readTermOptions(body, text, at),
          scoring: scoringOf(type),
          tieBreaker,
          boost,
        });
  return overFields(fields, forText, text, { lenient, boost, at });
}

function readMultiMatchType(value: unknown, at: string): MultiMatchType {
  if (value === undefined) return 'best_fields';
  const type = typeof value === 'string' ? value.toLowerCase() : value;
  if (MULTI_MATCH_TYPES.includes(type as MultiMatchType)) return type as MultiMatchType;
  throw malformed(
    `The type of the multi_match query (at ${join(at, 'type')}) must be one of ${MULTI_MATCH_TYPES.join(', ')}, not ${describe(value)}.`,
    join(at, 'type'),
    'illegal_argument_exception',
  );
}

const scoringOf = (type: MultiMatchType): FieldScoring =>
  type === 'most_fields' || type === 'bool_prefix' ? 'most_fields' : type === 'cross_fields' ? 'cross_fields' : 'best_fields';
