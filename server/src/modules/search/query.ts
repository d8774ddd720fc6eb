import type { SearchKeywordField, SearchSource, SearchTextField } from '@pim/contract';

/**
 * A search request as the engine runs it: what `dsl.ts` makes of an Elasticsearch request body.
 * Text is kept as the caller wrote it; the engine analyses it (`analysis.ts`) the way it analysed
 * the documents.
 */

/** A searched field and its weight (`text^2`). */
export interface FieldWeight {
  field: SearchTextField;
  boost: number;
}

/** Edit distance a term may be off by: `AUTO` is 0 up to 2 characters, 1 up to 5, else 2. */
export type Fuzziness = 0 | 1 | 2 | 'AUTO';

/** One word of a query: plain, a prefix (`word*`), or a pattern with `*` and `?` inside. */
export interface QueryWord {
  text: string;
  /** `plain` words are analysed (and may be fuzzy); `prefix` and `pattern` match vocabulary terms. */
  form: 'plain' | 'prefix' | 'pattern';
  fuzziness: Fuzziness;
}

/** How the scores of several fields combine (`multi_match`'s `type`). */
export type FieldScoring = 'best_fields' | 'most_fields' | 'cross_fields';

/**
 * Words to find in the text fields. `words` is the analysed-later text split by the parser only
 * where the syntax says so (query_string's quoted phrases and wildcards); a plain `match` has one
 * word with the whole text, which the engine splits into terms.
 */
export interface TextQuery {
  kind: 'text';
  fields: FieldWeight[];
  words: QueryWord[];
  /** `or`: any term matches (scored by how many and how rare); `and`: every term must. */
  operator: 'or' | 'and';
  /** With `or`: how many terms must match at least (already resolved from `minimum_should_match`). */
  minimumShouldMatch: number | null;
  scoring: FieldScoring;
  /** `tie_breaker` of best_fields: the other fields' share of the score. */
  tieBreaker: number;
  boost: number;
}

/** The words in this order, at most `slop` moves apart; `lastIsPrefix` for match_phrase_prefix. */
export interface PhraseQuery {
  kind: 'phrase';
  fields: FieldWeight[];
  text: string;
  slop: number;
  lastIsPrefix: boolean;
  boost: number;
}

export interface BoolQuery {
  kind: 'bool';
  must: Query[];
  should: Query[];
  filter: Query[];
  mustNot: Query[];
  /** Resolved: with no must/filter, at least 1 should must match; else 0 unless given. */
  minimumShouldMatch: number;
  boost: number;
}

export type KeywordValue = string | number | boolean;

/** `term` and `terms`: the field has one of these values. */
export interface TermsQuery {
  kind: 'terms';
  field: SearchKeywordField;
  values: KeywordValue[];
  boost: number;
}

export interface RangeQuery {
  kind: 'range';
  field: SearchKeywordField;
  gt?: KeywordValue;
  gte?: KeywordValue;
  lt?: KeywordValue;
  lte?: KeywordValue;
  boost: number;
}

export interface ExistsQuery {
  kind: 'exists';
  field: SearchKeywordField | SearchTextField;
  boost: number;
}

/** `ids`: documents by `_id` (the image's uuid). */
export interface IdsQuery {
  kind: 'ids';
  values: string[];
  boost: number;
}

export interface MatchAllQuery {
  kind: 'match_all';
  boost: number;
}

export interface MatchNoneQuery {
  kind: 'match_none';
}

export type Query = TextQuery | PhraseQuery | BoolQuery | TermsQuery | RangeQuery | ExistsQuery | IdsQuery | MatchAllQuery | MatchNoneQuery;

export interface SortClause {
  /** `_score`, `_doc` or a keyword field. */
  field: '_score' | '_doc' | SearchKeywordField;
  order: 'asc' | 'desc';
  /** Where documents without a value go (Elasticsearch: `_last` by default). */
  missing: '_first' | '_last';
}

export interface TermsAggregation {
  kind: 'terms';
  field: SearchKeywordField;
  size: number;
  /** Buckets by count (the default) or by key. */
  order: { by: '_count' | '_key'; direction: 'asc' | 'desc' };
  minDocCount: number;
}

export interface Highlight {
  /** The fields to highlight; `*` is resolved to the searched text fields. */
  fields: SearchTextField[];
  preTag: string;
  postTag: string;
  /** Characters per fragment; 0 for the whole field (then `numberOfFragments` is 1). */
  fragmentSize: number;
  numberOfFragments: number;
  /** `html`: the field's text is HTML-escaped before the tags are put in (Elasticsearch's `encoder`). */
  encoder: 'default' | 'html';
}

/** What `_source` returns: everything, nothing, or the fields named (patterns resolved). */
export type SourceFilter = { includes: string[] | null; excludes: string[] } | false;

export interface SearchRequest {
  query: Query;
  from: number;
  size: number;
  /** Empty: by `_score`. */
  sort: SortClause[];
  /** Scores are computed when sorting by `_score` or when `track_scores` asks for them. */
  trackScores: boolean;
  /** Count hits exactly up to this many (`true`: all). */
  trackTotalHits: number | true;
  source: SourceFilter;
  aggregations: Record<string, TermsAggregation>;
  /** `post_filter`: narrows the hits but not the aggregations (how search UIs keep facet counts). */
  postFilter: Query | null;
  highlight: Highlight | null;
}

/** One search of an `_msearch` body: its header's index (if any) and its request. */
export interface MsearchItem {
  index: string | null;
  body: unknown;
}

/**
 * What a caller may search: these indices, and in them only the documents of these sets (null:
 * every document, for admins). Resolved by the service before any backend runs a search.
 */
export interface SearchScope {
  indices: { id: string; name: string }[];
  setIds: string[] | null;
}

/** A document as the indexer hands it to a backend: the `_source` of its hits. */
export interface IndexedDocument {
  /** The image's uuid: the hit's `_id`. */
  id: string;
  source: SearchSource;
  /** The transcriptions its text came from: their lines are the hits' matched lines. */
  transcriptionIds?: string[];
}

/** Where search documents are written: the PostgreSQL engine, or an Elasticsearch cluster. */
export interface SearchDocumentStore {
  /** Adds or replaces these documents of the index. */
  upsert(index: { id: string; name: string }, docs: IndexedDocument[]): Promise<void>;
  /** Removes the documents of these images from the index (unknown ones are ignored). */
  remove(index: { id: string; name: string }, imageIds: string[]): Promise<void>;
  /** Empties the index. */
  clear(index: { id: string; name: string }): Promise<void>;
}
