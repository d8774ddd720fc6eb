import { SEARCH_KEYWORD_FIELDS, type SearchKeywordField } from '@pim/contract';
import type { KeywordValue, Query, QueryWord, RangeQuery } from '../query.js';
import { MATCH_NONE, textQuery } from './build.js';
import { malformed, unsupported } from './errors.js';
import { isOffset, keywordValue, resolveField, resolveKeywordField, resolveTextField } from './fields.js';
import { readBoost, readFuzziness } from './text.js';
import { checkParams, describe, isObject, join, type JsonObject, type ParamSpec, readBoolean, readObject, readString, singleKey } from './values.js';

/** term, terms, range, exists, ids, and prefix, wildcard and fuzzy on text fields. */

/** `{ field: value }` or `{ field: { value, … } }`. */
function fieldBody(body: unknown, construct: string, at: string): { name: string; options: JsonObject; at: string; short: boolean } {
  const object = readObject(body, at, `The ${construct} query`);
  const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== 'boost' && key !== '_name'));
  const [name, value] = singleKey(rest, at, `The ${construct} query`);
  const fieldAt = join(at, name);
  // The short form may put boost beside the field: { "term": { "language": "eng", "boost": 2 } }.
  const options = isObject(value) ? value : { value, ...(object.boost !== undefined && { boost: object.boost }) };
  return { name, options, at: fieldAt, short: !isObject(value) };
}

const TERM: ParamSpec = { value: 'use', boost: 'use', case_insensitive: 'use', _name: 'ignore' };

function refuseCaseInsensitive(options: JsonObject, construct: string, at: string) {
  if (options.case_insensitive !== undefined && readBoolean(options.case_insensitive, join(at, 'case_insensitive'), 'case_insensitive')) {
    throw unsupported(`case_insensitive: true in the ${construct} query`, join(at, 'case_insensitive'));
  }
}

export function parseTerm(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldBody(body, 'term', at);
  checkParams(options, TERM, 'term query', fieldAt);
  refuseCaseInsensitive(options, 'term', fieldAt);
  if (options.value === undefined) throw malformed(`The term query (at ${fieldAt}) has no value.`, fieldAt);
  return termsOf(name, [options.value], readBoost(options.boost, join(fieldAt, 'boost')), fieldAt);
}

export function parseTerms(body: unknown, at: string): Query {
  const object = readObject(body, at, 'The terms query');
  const fields = Object.keys(object).filter((key) => key !== 'boost' && key !== '_name');
  if (fields.length !== 1) {
    throw malformed(`The terms query (at ${at}) must name exactly one field, not ${fields.length} (${fields.join(', ') || 'none'}).`, at);
  }
  const name = fields[0] as string;
  const fieldAt = join(at, name);
  const values = object[name];
  if (isObject(values)) throw unsupported('A terms lookup (values from another document)', fieldAt);
  if (!Array.isArray(values)) throw malformed(`The terms query (at ${fieldAt}) takes an array of values, not ${describe(values)}.`, fieldAt);
  return termsOf(name, values, readBoost(object.boost, join(at, 'boost')), fieldAt);
}

/** The field has one of these values; `_id` is the ids query; on a text field, the terms as words. */
function termsOf(name: string, values: unknown[], boost: number, at: string): Query {
  if (values.length === 0) return MATCH_NONE;
  if (name === '_id') return { kind: 'ids', values: values.map((value, index) => readString(value, join(at, index), 'An id')), boost };
  const resolved = resolveField(name === '_index' ? 'index' : name, at);
  if (resolved.kind === 'text') {
    // Elasticsearch compares a term with the indexed (analysed) tokens: the nearest is the word itself.
    const words: QueryWord[] = values.map((value, index) => ({ text: termText(value, join(at, index)), form: 'plain', fuzziness: 0 }));
    return textQuery([{ field: resolved.field, boost: 1 }], words, { boost });
  }
  const converted = values.map((value, index) => keywordValue(resolved.field, value, values.length > 1 ? join(at, index) : at) as KeywordValue);
  return { kind: 'terms', field: resolved.field, values: converted, boost };
}

function termText(value: unknown, at: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw malformed(`A term (at ${at}) must be a string, a number or a boolean, not ${describe(value)}.`, at, 'x_content_parse_exception');
}

const RANGE: ParamSpec = {
  gt: 'use',
  gte: 'use',
  lt: 'use',
  lte: 'use',
  from: 'use',
  to: 'use',
  include_lower: 'use',
  include_upper: 'use',
  boost: 'use',
  format: 'use',
  time_zone: 'use',
  relation: 'use',
  _name: 'ignore',
};

export function parseRange(body: unknown, at: string): Query {
  const { name, options, at: fieldAt, short } = fieldBody(body, 'range', at);
  if (short) {
    throw malformed(`The range query (at ${fieldAt}) takes an object of bounds (gt, gte, lt, lte), not ${describe(options.value)}.`, fieldAt);
  }
  checkParams(options, RANGE, 'range query', fieldAt);
  const field = resolveKeywordField(name, fieldAt, 'a range query');
  const zone = readZone(options.time_zone, join(fieldAt, 'time_zone'));
  if (options.relation !== undefined && String(options.relation).toLowerCase() !== 'intersects') {
    throw unsupported(`The relation "${String(options.relation)}" of a range query (the index has no range fields)`, join(fieldAt, 'relation'));
  }
  readFormat(options.format, field, join(fieldAt, 'format'));
  const bound = (key: string, roundUp: boolean): KeywordValue | undefined =>
    options[key] === undefined || options[key] === null ? undefined : (keywordValue(field, options[key], join(fieldAt, key), { roundUp, zone }) as KeywordValue);
  const range: RangeQuery = { kind: 'range', field, boost: readBoost(options.boost, join(fieldAt, 'boost')) };
  const lower = (inclusive: boolean, value: KeywordValue | undefined) => value !== undefined && (inclusive ? (range.gte = value) : (range.gt = value));
  const upper = (inclusive: boolean, value: KeywordValue | undefined) => value !== undefined && (inclusive ? (range.lte = value) : (range.lt = value));
  // The old form, from/to with include_lower/include_upper (inclusive by default).
  const includeLower = options.include_lower === undefined || readBoolean(options.include_lower, join(fieldAt, 'include_lower'), 'include_lower');
  const includeUpper = options.include_upper === undefined || readBoolean(options.include_upper, join(fieldAt, 'include_upper'), 'include_upper');
  lower(includeLower, bound('from', !includeLower));
  upper(includeUpper, bound('to', includeUpper));
  lower(false, bound('gt', true));
  lower(true, bound('gte', false));
  upper(false, bound('lt', false));
  upper(true, bound('lte', true));
  return range;
}

function readZone(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  const zone = readString(value, at, 'The time_zone');
  if (/^(utc|gmt|z)$/i.test(zone)) return 'Z';
  if (isOffset(zone)) return zone;
  throw unsupported(`The time_zone "${zone}" (only offsets such as "+01:00" or "UTC")`, at);
}

/** `format` changes nothing for numbers; dates are read in ISO 8601 whatever it says, so only ISO-like formats pass. */
function readFormat(value: unknown, field: SearchKeywordField, at: string) {
  if (value === undefined || SEARCH_KEYWORD_FIELDS[field] !== 'date') return;
  const format = readString(value, at, 'The format');
  const iso = /^(strict_)?(date_optional_time|date_time|date|date_time_no_millis|year_month_day|year_month|year|epoch_millis|yyyy(-MM(-dd)?)?)(\|\|.+)?$/;
  if (!format.split('||').every((part) => iso.test(part) || part === "yyyy-MM-dd'T'HH:mm:ss")) {
    throw unsupported(`The date format "${format}" (dates are read as ISO 8601 or epoch milliseconds)`, at);
  }
}

export function parseExists(body: unknown, at: string): Query {
  const object = readObject(body, at, 'The exists query');
  checkParams(object, { field: 'use', boost: 'use', _name: 'ignore' }, 'exists query', at);
  const name = readString(object.field, join(at, 'field'), 'The field of the exists query');
  return { kind: 'exists', field: resolveField(name, join(at, 'field')).field, boost: readBoost(object.boost, join(at, 'boost')) };
}

export function parseIds(body: unknown, at: string): Query {
  const object = readObject(body, at, 'The ids query');
  checkParams(object, { values: 'use', boost: 'use', type: 'ignore', _name: 'ignore' }, 'ids query', at);
  const values = object.values;
  if (!Array.isArray(values)) throw malformed(`The ids query (at ${at}) takes "values", an array of ids, not ${describe(values)}.`, at);
  const ids = values.map((value, index) => readString(value, join(join(at, 'values'), index), 'An id'));
  return { kind: 'ids', values: ids, boost: readBoost(object.boost, join(at, 'boost')) };
}

const MULTI_TERM: ParamSpec = { value: 'use', boost: 'use', rewrite: 'ignore', case_insensitive: 'use', _name: 'ignore' };

/** prefix: words of a text field that begin with the value. */
export function parsePrefix(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldBody(body, 'prefix', at);
  checkParams(options, MULTI_TERM, 'prefix query', fieldAt);
  refuseCaseInsensitive(options, 'prefix', fieldAt);
  const field = resolveTextField(name, fieldAt, 'prefix query');
  const value = readString(options.value, join(fieldAt, 'value'), 'The prefix');
  return textQuery([{ field, boost: 1 }], [{ text: value, form: 'prefix', fuzziness: 0 }], { boost: readBoost(options.boost, join(fieldAt, 'boost')) });
}

/** wildcard: `*` and `?` in a word of a text field. */
export function parseWildcard(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldBody(body, 'wildcard', at);
  const { wildcard, ...rest } = options;
  const normalised = wildcard === undefined ? options : { ...rest, value: wildcard };
  checkParams(normalised, MULTI_TERM, 'wildcard query', fieldAt);
  refuseCaseInsensitive(normalised, 'wildcard', fieldAt);
  const field = resolveTextField(name, fieldAt, 'wildcard query');
  const value = readString(normalised.value, join(fieldAt, 'value'), 'The wildcard pattern');
  return textQuery([{ field, boost: 1 }], [patternWord(value)], { boost: readBoost(normalised.boost, join(fieldAt, 'boost')) });
}

/** A word with wildcards: a single trailing `*` is a prefix; no wildcard at all, the word itself. */
export function patternWord(value: string): QueryWord {
  const wildcards = value.match(/[*?]/g)?.length ?? 0;
  if (wildcards === 0) return { text: value, form: 'plain', fuzziness: 0 };
  if (wildcards === 1 && value.endsWith('*') && value.length > 1) return { text: value.slice(0, -1), form: 'prefix', fuzziness: 0 };
  return { text: value, form: 'pattern', fuzziness: 0 };
}

const FUZZY: ParamSpec = {
  value: 'use',
  fuzziness: 'use',
  boost: 'use',
  prefix_length: 'ignore',
  max_expansions: 'ignore',
  transpositions: 'ignore',
  rewrite: 'ignore',
  _name: 'ignore',
};

export function parseFuzzy(body: unknown, at: string): Query {
  const { name, options, at: fieldAt } = fieldBody(body, 'fuzzy', at);
  checkParams(options, FUZZY, 'fuzzy query', fieldAt);
  const field = resolveTextField(name, fieldAt, 'fuzzy query');
  const value = readString(options.value, join(fieldAt, 'value'), 'The fuzzy word');
  const fuzziness = options.fuzziness === undefined ? 'AUTO' : readFuzziness(options.fuzziness, join(fieldAt, 'fuzziness'));
  return textQuery([{ field, boost: 1 }], [{ text: value, form: 'plain', fuzziness }], { boost: readBoost(options.boost, join(fieldAt, 'boost')) });
}
