import type { FieldScoring, FieldWeight, Fuzziness, Query, QueryWord, TextQuery } from '../query.js';
import { bool, matchAll, overFields, textQuery } from './build.js';
import type { FieldSet } from './fields.js';
import { countTerms, resolveMinimumShouldMatch } from './text.js';

/**
 * What query_string and simple_query_string share: the query of one word or phrase over the
 * fields, and the bool query of a run of clauses.
 */

export interface StringQueryContext {
  fields: FieldSet;
  /** default_operator: how the terms of one word (`foo-bar`) and unmarked clauses combine. */
  operator: 'or' | 'and';
  scoring: FieldScoring;
  tieBreaker: number;
  lenient: boolean;
  at: string;
}

export type Occur = 'must' | 'should' | 'mustNot';
export interface Clause {
  occur: Occur;
  query: Query;
}

/** One word (plain, fuzzy, prefix or pattern); null when it holds no term (punctuation). */
export function wordQuery(context: StringQueryContext, fields: FieldSet, word: QueryWord): Query | null {
  if (word.form === 'plain' && countTerms(word.text) === 0 && fields.keyword.length === 0) return null;
  if (word.form !== 'plain' || word.fuzziness !== 0) {
    // Prefixes, patterns and fuzzy words compare words of the text; keyword fields are left out of them.
    if (fields.text.length === 0 || (word.form === 'plain' && countTerms(word.text) === 0)) return null;
    return textQuery(fields.text, [word], textOptions(context));
  }
  return overFields(fields, (text) => textQuery(text, [word], textOptions(context)), word.text, { lenient: context.lenient, boost: 1, at: context.at });
}

export function phraseQuery(context: StringQueryContext, fields: FieldSet, text: string, slop: number): Query | null {
  if (countTerms(text) === 0 && fields.keyword.length === 0) return null;
  const forText = (textFields: FieldWeight[]): Query => ({ kind: 'phrase', fields: textFields, text, slop, lastIsPrefix: false, boost: 1 });
  return overFields(fields, forText, text, { lenient: context.lenient, boost: 1, at: context.at });
}

const textOptions = (context: StringQueryContext) => ({
  operator: context.operator,
  scoring: context.scoring,
  tieBreaker: context.tieBreaker,
});

/** The query with its boost multiplied (`term^2`). */
export function boosted(query: Query, boost: number): Query {
  if (boost === 1 || query.kind === 'match_none') return query;
  return { ...query, boost: query.boost * boost };
}

/**
 * The bool query of clauses, as Lucene builds it, with two simplifications that keep the engine's
 * fast path: single-term words all optional (or all required) over the same fields become one
 * text query with `or` (or `and`); one clause stands alone. Only negative clauses match everything
 * else, as Elasticsearch's query parsers make them. `minimumShouldMatch` is the spec for the top
 * level, counted against its optional clauses.
 */
export function combine(clauses: Clause[], minimumShouldMatch: unknown, at: string): Query | null {
  if (clauses.length === 0) return null;
  const of = (occur: Occur) => clauses.filter((clause) => clause.occur === occur).map((clause) => clause.query);
  const [must, should, mustNot] = [of('must'), of('should'), of('mustNot')];
  const resolved = minimumShouldMatch === undefined ? 0 : resolveMinimumShouldMatch(minimumShouldMatch, should.length, at);
  const minimum = resolved > 0 ? resolved : null;
  if (mustNot.length === 0 && must.length === 0) {
    const merged = mergeWords(should, 'or', minimum);
    if (merged) return merged;
  }
  if (mustNot.length === 0 && should.length === 0) {
    const merged = mergeWords(must, 'and', null);
    if (merged) return merged;
  }
  if (clauses.length === 1 && mustNot.length === 0) return clauses[0]!.query;
  return bool({ must: must.length + should.length === 0 ? [matchAll()] : must, should, mustNot }, minimum);
}

function mergeWords(queries: Query[], operator: 'or' | 'and', minimum: number | null): TextQuery | null {
  if (queries.length < 2) return null;
  const first = queries[0]!;
  if (first.kind !== 'text') return null;
  const sameFields = (query: TextQuery) => JSON.stringify(query.fields) === JSON.stringify(first.fields);
  const single = (query: Query): query is TextQuery =>
    query.kind === 'text' &&
    query.boost === 1 &&
    query.words.length === 1 &&
    (query.words[0]!.form !== 'plain' || countTerms(query.words[0]!.text) === 1) &&
    sameFields(query) &&
    query.scoring === first.scoring &&
    query.tieBreaker === first.tieBreaker;
  if (!queries.every(single)) return null;
  const words = (queries as TextQuery[]).map((query) => query.words[0]!);
  return textQuery(first.fields, words, { operator, minimumShouldMatch: minimum, scoring: first.scoring, tieBreaker: first.tieBreaker });
}

/** `word~`, `word~1`, `word~0.8` (old similarity, read as AUTO); more than 2 edits is 2, as Lucene caps it. */
export function fuzzinessOf(slop: string, fallback: Fuzziness): Fuzziness {
  if (slop === '') return fallback;
  const number = Number(slop);
  if (!Number.isInteger(number)) return 'AUTO';
  return Math.min(2, Math.max(0, number)) as Fuzziness;
}
