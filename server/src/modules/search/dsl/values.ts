import { badValue, malformed, unsupported } from './errors.js';

/** Readers of the JSON values of a request body that refuse wrong types with a 400 saying which. */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a value reads in a message: `a string ("x")`, `an array`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value === 'number' ? 'a number' : 'a boolean'} (${String(value)})`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

export const join = (at: string, key: string | number) =>
  typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${key}` : key;

export function readObject(value: unknown, at: string, subject: string): JsonObject {
  if (!isObject(value)) throw badValue(subject, at, `must be an object, not ${describe(value)}.`);
  return value;
}

export function readString(value: unknown, at: string, subject: string): string {
  if (typeof value !== 'string') throw badValue(subject, at, `must be a string, not ${describe(value)}.`);
  return value;
}

/** Numbers also as numeric strings, as Elasticsearch reads them. */
export function readNumber(value: unknown, at: string, subject: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw badValue(subject, at, `must be a number, not ${describe(value)}.`);
  return number;
}

export function readInteger(value: unknown, at: string, subject: string, min?: number): number {
  const number = readNumber(value, at, subject);
  if (!Number.isInteger(number)) throw badValue(subject, at, `must be a whole number, not ${describe(value)}.`);
  if (min !== undefined && number < min) {
    throw badValue(subject, at, `must be at least ${min}, not ${number}.`, 'illegal_argument_exception');
  }
  return number;
}

export function readBoolean(value: unknown, at: string, subject: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badValue(subject, at, `must be true or false, not ${describe(value)}.`);
}

/** A string or an array of strings, as `fields`, `_source` and `pre_tags` take them. */
export function readStrings(value: unknown, at: string, subject: string): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw badValue(subject, at, `must be a string or an array of strings, not ${describe(value)}.`);
}

/** One clause or an array of clauses (`bool.must`, `should`…). */
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * What a construct does with each parameter: `use` (read by the caller), `ignore` (accepted; it
 * changes nothing we compute, or only what Elasticsearch itself treats as a hint) or `unsupported`.
 */
export type ParamSpec = Record<string, 'use' | 'ignore' | 'unsupported'>;

/** Refuses parameters the construct does not have, and those we do not run. */
export function checkParams(object: JsonObject, spec: ParamSpec, construct: string, at: string): void {
  for (const key of Object.keys(object)) {
    const use = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (use === undefined) {
      const known = Object.keys(spec).filter((name) => spec[name] !== 'unsupported');
      throw malformed(
        `The ${construct}${at ? ` (at ${at})` : ''} has no parameter "${key}". It takes: ${known.join(', ')}.`,
        at,
      );
    }
    if (use === 'unsupported') throw unsupported(`The parameter "${key}" of the ${construct}`, join(at, key));
  }
}

/** The one key of `{ "match": {...} }`-like objects: the query type, the field, the aggregation type. */
export function singleKey(object: JsonObject, at: string, subject: string): [string, unknown] {
  const keys = Object.keys(object);
  if (keys.length !== 1) {
    const found = keys.length === 0 ? 'is empty' : `has ${keys.length} keys (${keys.map((key) => `"${key}"`).join(', ')})`;
    throw malformed(`${subject}${at ? ` (at ${at})` : ''} ${found}; it must have exactly one.`, at);
  }
  const key = keys[0] as string;
  return [key, object[key]];
}
