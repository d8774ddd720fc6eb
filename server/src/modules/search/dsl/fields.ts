import { SEARCH_KEYWORD_FIELDS, SEARCH_TEXT_FIELDS, type SearchKeywordField, type SearchTextField } from '@pim/contract';
import type { FieldWeight, KeywordValue } from '../query.js';
import { badValue, malformed, unsupported } from './errors.js';
import { describe } from './values.js';

/**
 * The fields a request may name. Elasticsearch matches nothing on a field that does not exist; we
 * answer 400 naming it, so a typo in a client's configuration shows at once.
 */

export type ResolvedField = { kind: 'text'; field: SearchTextField } | { kind: 'keyword'; field: SearchKeywordField };

const KEYWORD_NAMES = Object.keys(SEARCH_KEYWORD_FIELDS) as SearchKeywordField[];
const isTextField = (name: string): name is SearchTextField => (SEARCH_TEXT_FIELDS as readonly string[]).includes(name);
const isKeywordField = (name: string): name is SearchKeywordField => Object.hasOwn(SEARCH_KEYWORD_FIELDS, name);

const where = (at: string) => (at ? ` (at ${at})` : '');
const FIELD_LIST = `Text fields: ${SEARCH_TEXT_FIELDS.join(', ')}; keyword fields: ${KEYWORD_NAMES.join(', ')}.`;

function unknownField(name: string, at: string) {
  return malformed(`The field "${name}"${where(at)} does not exist in the search index. ${FIELD_LIST}`, at, 'query_shard_exception');
}

/** A text field, or a keyword field by its name or with `.keyword` as Elasticsearch's dynamic mapping names it. */
export function resolveField(name: string, at: string): ResolvedField {
  if (isTextField(name)) return { kind: 'text', field: name };
  const bare = name.endsWith('.keyword') ? name.slice(0, -'.keyword'.length) : name;
  if (isKeywordField(bare)) return { kind: 'keyword', field: bare };
  throw unknownField(name, at);
}

/** A field for term-level queries, sorts and aggregations: keyword, number or date. */
export function resolveKeywordField(name: string, at: string, purpose: string): SearchKeywordField {
  const resolved = resolveField(name, at);
  if (resolved.kind === 'text') {
    throw malformed(
      `The field "${name}"${where(at)} is a text field, which ${purpose} cannot use; use one of the keyword fields: ${KEYWORD_NAMES.join(', ')}.`,
      at,
      'illegal_argument_exception',
    );
  }
  return resolved.field;
}

export function resolveTextField(name: string, at: string, construct: string): SearchTextField {
  const resolved = resolveField(name, at);
  if (resolved.kind === 'keyword') {
    throw unsupported(`The ${construct} on the keyword field "${name}" (only the text fields ${SEARCH_TEXT_FIELDS.join(', ')} take it here)`, at);
  }
  return resolved.field;
}

/** `*` and `?` in a name: Elasticsearch's simple patterns. */
export const isPattern = (name: string) => /[*?]/.test(name);

export function patternMatches(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}

export interface FieldSet {
  text: FieldWeight[];
  keyword: { field: SearchKeywordField; boost: number }[];
}

export const ALL_TEXT_FIELDS: FieldSet = { text: SEARCH_TEXT_FIELDS.map((field) => ({ field, boost: 1 })), keyword: [] };

/**
 * `fields` of multi_match, query_string and simple_query_string: names with `^boost`, patterns
 * resolved against the text fields (the fields a pattern like `*` searches in our index).
 */
export function resolveFieldList(specs: string[], at: string): FieldSet {
  // No fields at all is Elasticsearch's `index.query.default_field`, `*`.
  if (specs.length === 0) return ALL_TEXT_FIELDS;
  const text = new Map<SearchTextField, number>();
  const keyword = new Map<SearchKeywordField, number>();
  const put = <K>(into: Map<K, number>, key: K, boost: number) => into.set(key, Math.max(into.get(key) ?? 0, boost));
  specs.forEach((spec, index) => {
    const itemAt = specs.length > 1 ? `${at}[${index}]` : at;
    const caret = spec.lastIndexOf('^');
    const name = caret >= 0 ? spec.slice(0, caret) : spec;
    const boost = caret >= 0 ? Number(spec.slice(caret + 1)) : 1;
    if (!Number.isFinite(boost) || boost < 0 || spec.slice(caret + 1).trim() === '') {
      throw badValue(`The boost of "${spec}"`, itemAt, 'must be a number that is not negative.', 'illegal_argument_exception');
    }
    if (isPattern(name)) {
      const matched = SEARCH_TEXT_FIELDS.filter((field) => patternMatches(name, field));
      if (matched.length === 0) {
        throw malformed(
          `The field pattern "${name}"${where(itemAt)} matches none of the text fields (${SEARCH_TEXT_FIELDS.join(', ')}).`,
          itemAt,
          'query_shard_exception',
        );
      }
      for (const field of matched) put(text, field, boost);
      return;
    }
    const resolved = resolveField(name, itemAt);
    if (resolved.kind === 'text') put(text, resolved.field, boost);
    else put(keyword, resolved.field, boost);
  });
  return {
    text: [...text].map(([field, boost]) => ({ field, boost })),
    keyword: [...keyword].map(([field, boost]) => ({ field, boost })),
  };
}

/**
 * A value for a keyword, number or date field, converted as Elasticsearch converts it. With
 * `lenient`, a value the field cannot hold gives null (the clause is left out) instead of a 400.
 */
export function keywordValue(
  field: SearchKeywordField,
  value: unknown,
  at: string,
  options: { lenient?: boolean; roundUp?: boolean; zone?: string } = {},
): KeywordValue | null {
  const type = SEARCH_KEYWORD_FIELDS[field];
  if (type === 'keyword') {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw badValue(`The value for "${field}"`, at, `must be a string, a number or a boolean, not ${describe(value)}.`);
  }
  if (type === 'number') {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number === 'number' && Number.isFinite(number)) return number;
    if (options.lenient) return null;
    throw badValue(`The value for the number field "${field}"`, at, `must be a number, not ${describe(value)}.`, 'query_shard_exception');
  }
  const date = parseDate(value, options.roundUp ?? false, options.zone);
  if (date !== null) return date;
  if (options.lenient) return null;
  throw badValue(
    `The value for the date field "${field}"`,
    at,
    `must be a date such as "2024", "2024-05-17" or "2024-05-17T10:30:00Z" (or milliseconds since 1970), not ${describe(value)}; ` +
      'date math with "now" or "||" is not supported.',
    'query_shard_exception',
  );
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A date as Elasticsearch's default format (`strict_date_optional_time||epoch_millis`) reads it,
 * in UTC unless an offset is given, as an ISO string. `roundUp` (for `gt` and `lte`) fills the
 * missing time of day with 23:59:59.999, as Elasticsearch does; missing month and day are 01.
 */
export function parseDate(value: unknown, roundUp: boolean, zone?: string): string | null {
  if (typeof value === 'number' && Number.isInteger(value)) return new Date(value).toISOString();
  if (typeof value !== 'string') return null;
  const match = DATE.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const part = (text: string | undefined, missing: number) => (text === undefined ? missing : Number(text));
  const millis = fraction === undefined ? (roundUp ? 999 : 0) : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const utc = Date.UTC(
    Number(year),
    part(month, 1) - 1,
    part(day, 1),
    part(hour, roundUp ? 23 : 0),
    part(minute, roundUp ? 59 : 0),
    part(second, roundUp ? 59 : 0),
    millis,
  );
  const date = new Date(utc - offsetMinutes(offset ?? zone) * 60_000);
  if (Number.isNaN(date.getTime()) || part(month, 1) > 12 || part(day, 1) > 31 || part(hour, 0) > 23) return null;
  return date.toISOString();
}

/** `Z`, `+01:00`, `-0500`, `+01`: the offsets a date or a range's `time_zone` may give. */
export const isOffset = (zone: string) => /^(Z|[+-]\d{2}(:?\d{2})?)$/.test(zone);

function offsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return offset.startsWith('-') ? -minutes : minutes;
}
