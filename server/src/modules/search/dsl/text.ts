import { tokenize } from '../analysis.js';
import type { Fuzziness, QueryWord } from '../query.js';
import { badValue } from './errors.js';
import { describe, readNumber } from './values.js';

/**
 * Pieces the full-text queries share: the query text, operators, fuzziness, boosts and
 * `minimum_should_match`.
 */

/** How many terms the engine's analysis makes of a text: what `minimum_should_match` counts. */
export const countTerms = (text: string) => tokenize(text).length;

/** The text before the last term, and the last term (match_bool_prefix: the last term is a prefix). */
export function splitLastTerm(text: string): { head: string; last: string } | null {
  const last = tokenize(text).at(-1);
  if (!last) return null;
  return { head: text.slice(0, last.start), last: text.slice(last.start, last.end) };
}

export const plainWord = (text: string, fuzziness: Fuzziness = 0): QueryWord => ({ text, form: 'plain', fuzziness });

/** The query text: Elasticsearch takes numbers and booleans too and reads them as text. */
export function readQueryText(value: unknown, at: string, construct: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) throw badValue(`The ${construct}`, at, 'has no "query": it needs the text to search for.', 'parsing_exception');
  throw badValue(`The query text of the ${construct}`, at, `must be a string, not ${describe(value)}.`);
}

export function readOperator(value: unknown, at: string): 'or' | 'and' {
  if (typeof value === 'string' && /^(or|and)$/i.test(value)) return value.toLowerCase() as 'or' | 'and';
  throw badValue('The operator', at, `must be "or" or "and", not ${describe(value)}.`, 'illegal_argument_exception');
}

/**
 * `fuzziness`: 0, 1, 2 (as numbers or strings), `AUTO` and `AUTO:low,high` (read as AUTO, whose
 * thresholds the engine fixes at 3 and 6, Elasticsearch's defaults).
 */
export function readFuzziness(value: unknown, at: string): Fuzziness {
  if (value === 0 || value === '0') return 0;
  if (value === 1 || value === '1') return 1;
  if (value === 2 || value === '2') return 2;
  if (typeof value === 'string' && /^auto(:\d+,\d+)?$/i.test(value.trim())) return 'AUTO';
  throw badValue('The fuzziness', at, `must be 0, 1, 2, "AUTO" or "AUTO:3,6", not ${describe(value)}.`, 'illegal_argument_exception');
}

export function readBoost(value: unknown, at: string): number {
  if (value === undefined) return 1;
  const boost = readNumber(value, at, 'The boost');
  if (boost < 0) throw badValue('The boost', at, `must not be negative, not ${boost}.`, 'illegal_argument_exception');
  return boost;
}

/**
 * `minimum_should_match` against the number of optional clauses, as Elasticsearch computes it:
 * `3`, `-1` (all but one), `75%` (rounded down), `-25%`, and conditional specs like `2<-25% 9<-3`.
 * Never below 0; above the number of clauses means nothing can match.
 */
export function resolveMinimumShouldMatch(spec: unknown, optional: number, at: string): number {
  const text = typeof spec === 'number' && Number.isInteger(spec) ? String(spec) : typeof spec === 'string' ? spec.trim() : null;
  const refuse = () =>
    badValue(
      'The minimum_should_match',
      at,
      `must be a whole number ("2", "-1"), a percentage ("75%", "-25%") or conditions like "2<-25%", not ${describe(spec)}.`,
      'illegal_argument_exception',
    );
  if (text === null || text === '') throw refuse();
  if (text.includes('<')) {
    // Conditions in ascending order: the first whose clause count is not exceeded stops the walk.
    let result = optional;
    for (const condition of text.replace(/\s*<\s*/g, '<').split(/\s+/)) {
      const match = /^(\d+)<(-?\d+%?)$/.exec(condition);
      if (!match) throw refuse();
      if (optional <= Number(match[1])) return result;
      result = resolveMinimumShouldMatch(match[2], optional, at);
    }
    return result;
  }
  const match = /^(-?\d+)(%?)$/.exec(text);
  if (!match) throw refuse();
  const number = Number(match[1]);
  let result: number;
  if (match[2] === '%') {
    const share = Math.trunc((optional * number) / 100);
    result = number < 0 ? optional + share : share;
  } else {
    result = number < 0 ? optional + number : number;
  }
  return Math.max(0, result);
}
