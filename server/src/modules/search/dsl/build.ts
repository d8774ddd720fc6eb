import type { BoolQuery, FieldScoring, FieldWeight, MatchAllQuery, MatchNoneQuery, Query, QueryWord, TextQuery } from '../query.js';
import { type FieldSet, keywordValue } from './fields.js';

/** Constructors of the query model, so every parser builds the same shapes. */

export const MATCH_NONE: MatchNoneQuery = { kind: 'match_none' };
export const matchAll = (boost = 1): MatchAllQuery => ({ kind: 'match_all', boost });

export interface TextOptions {
  operator: 'or' | 'and';
  minimumShouldMatch: number | null;
  scoring: FieldScoring;
  tieBreaker: number;
  boost: number;
}

export const TEXT_DEFAULTS: TextOptions = { operator: 'or', minimumShouldMatch: null, scoring: 'best_fields', tieBreaker: 0, boost: 1 };

export function textQuery(fields: FieldWeight[], words: QueryWord[], options: Partial<TextOptions> = {}): TextQuery {
  const { operator, minimumShouldMatch, scoring, tieBreaker, boost } = { ...TEXT_DEFAULTS, ...options };
  return {
    kind: 'text',
    fields,
    words,
    operator,
    // With `and` every term is required; a minimum of 1 or less adds nothing to `or`.
    minimumShouldMatch: operator === 'or' && minimumShouldMatch !== null && minimumShouldMatch > 1 ? minimumShouldMatch : null,
    scoring,
    tieBreaker,
    boost,
  };
}

export interface BoolParts {
  must?: Query[];
  should?: Query[];
  filter?: Query[];
  mustNot?: Query[];
}

/**
 * A bool query with its `minimumShouldMatch` resolved: the given number, else 1 when there are
 * should clauses and nothing required, else 0 (the should clauses only add to the score).
 */
export function bool(parts: BoolParts, minimumShouldMatch: number | null = null, boost = 1): BoolQuery {
  const must = parts.must ?? [];
  const should = parts.should ?? [];
  const filter = parts.filter ?? [];
  const mustNot = parts.mustNot ?? [];
  const required = must.length + filter.length > 0;
  return {
    kind: 'bool',
    must,
    should,
    filter,
    mustNot,
    minimumShouldMatch: minimumShouldMatch ?? (should.length > 0 && !required ? 1 : 0),
    boost,
  };
}

/** Any of these (a single one unwrapped); none → nothing matches. */
export function anyOf(queries: Query[], boost = 1): Query {
  if (queries.length === 0) return MATCH_NONE;
  if (queries.length === 1 && boost === 1) return queries[0] as Query;
  return bool({ should: queries }, 1, boost);
}

/**
 * A full-text query over a field set: its text fields get `forText`, each keyword field a term
 * on the whole text (what Elasticsearch does with a keyword field in multi_match and query
 * strings); the keyword clauses add to the score rather than taking the best of the fields.
 */
export function overFields(
  fields: FieldSet,
  forText: (text: FieldWeight[]) => Query,
  value: string,
  options: { lenient: boolean; boost: number; at: string },
): Query {
  const clauses: Query[] = fields.text.length > 0 ? [forText(fields.text)] : [];
  for (const { field, boost } of fields.keyword) {
    const converted = keywordValue(field, value, options.at, { lenient: options.lenient });
    if (converted !== null) clauses.push({ kind: 'terms', field, values: [converted], boost: boost * options.boost });
  }
  return anyOf(clauses);
}
