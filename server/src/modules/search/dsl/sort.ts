import type { SortClause } from '../query.js';
import { malformed, unsupported } from './errors.js';
import { resolveKeywordField } from './fields.js';
import { asList, checkParams, describe, isObject, join, readObject } from './values.js';

/** `sort`: a name, `{ name: "asc" }`, `{ name: { order, missing } }`, or an array of them. */

export function parseSort(value: unknown, at: string): SortClause[] {
  const list = asList(value);
  return list.map((item, index) => parseClause(item, Array.isArray(value) ? join(at, index) : at));
}

function parseClause(item: unknown, at: string): SortClause {
  if (typeof item === 'string') return clause(item, undefined, undefined, at);
  const object = readObject(item, at, 'A sort clause');
  const keys = Object.keys(object);
  if (keys.length !== 1) throw malformed(`A sort clause (at ${at}) must name one field, not ${keys.length}.`, at);
  const name = keys[0] as string;
  const fieldAt = join(at, name);
  if (name === '_geo_distance' || name === '_script') throw unsupported(`Sorting by ${name}`, fieldAt);
  const options = object[name];
  if (typeof options === 'string') return clause(name, options, undefined, fieldAt);
  const settings = readObject(options, fieldAt, `The sort options of "${name}"`);
  checkParams(
    settings,
    { order: 'use', missing: 'use', unmapped_type: 'ignore', format: 'ignore', numeric_type: 'ignore', mode: 'unsupported', nested: 'unsupported' },
    `sort on "${name}"`,
    fieldAt,
  );
  return clause(name, settings.order, settings.missing, fieldAt);
}

function clause(name: string, order: unknown, missing: unknown, at: string): SortClause {
  const field = name === '_score' || name === '_doc' ? name : resolveKeywordField(name, at, 'sorting');
  return { field, order: readDirection(order, field === '_score' ? 'desc' : 'asc', at), missing: readMissing(missing, at) };
}

function readDirection(value: unknown, fallback: 'asc' | 'desc', at: string): 'asc' | 'desc' {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && /^(asc|desc)$/i.test(value)) return value.toLowerCase() as 'asc' | 'desc';
  throw malformed(`The sort order (at ${at}) must be "asc" or "desc", not ${describe(value)}.`, at, 'illegal_argument_exception');
}

function readMissing(value: unknown, at: string): '_first' | '_last' {
  if (value === undefined || value === '_last') return '_last';
  if (value === '_first') return '_first';
  if (isObject(value) || Array.isArray(value)) throw malformed(`The sort's missing (at ${at}) must be "_first" or "_last".`, at);
  throw unsupported(`A sort's missing value other than "_first" or "_last" (${describe(value)})`, join(at, 'missing'));
}
