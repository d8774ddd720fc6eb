import type { SearchHit, SearchResponse, SearchSource } from '@pim/contract';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { highlightFields } from '../highlight.js';
import type { Query, SearchRequest, SearchScope, SortClause, TermsAggregation } from '../query.js';
import { type CompiledQuery, QueryCompiler, SORT_EXPRESSIONS, toSql } from './compile.js';
import { type Coverage, type LanguageCounts, countByLanguage, coverageOf } from './counts.js';
import { TermExpander } from './expand.js';
import { withLocalSettings } from './local-settings.js';
import { type BlockedIndex, ListSearch, blockedIndices, languageIdsOf, listingKey, listings } from './list-search.js';
import { type ListKnowledge, TopK } from './scoring.js';

/** The languages a query's filters pin down (`term(s)` on language in must/filter), for stemming. */
function filteredLanguages(q: Query): string[] | null {
  if (q.kind === 'terms' && q.field === 'language') return q.values.map(String);
  if (q.kind !== 'bool') return null;
  for (const clause of [...q.filter, ...q.must]) {
    const found = filteredLanguages(clause);
    if (found) return found;
  }
  return null;
}

/**
 * The caller's documents. Written so no index serves it (`is true`): the caller's sets are most of
 * an index, and a plan that walked the sets' index would test the query on every document of
 * them; the query's own terms (the GIN index) or filters are what narrow a search.
 */
function scopeSql(scope: SearchScope): RawBuilder<SqlBool> {
  const indexIds = scope.indices.map((i) => i.id);
  const sets = scope.setIds === null ? sql<SqlBool>`true` : sql<SqlBool>`(d.set_ids && ${scope.setIds}::uuid[]) is true`;
  return sql<SqlBool>`((d.index_id = any(${indexIds}::uuid[])) is true and ${sets})`;
}

function sortSql(sort: SortClause[]): RawBuilder<unknown> {
  const parts = sort.map((s) => {
    const expression = s.field === '_doc' ? sql`d.id` : SORT_EXPRESSIONS[s.field as keyof typeof SORT_EXPRESSIONS];
    return sql`${expression} ${sql.raw(s.order)} nulls ${sql.raw(s.missing === '_first' ? 'first' : 'last')}`;
  });
  return sql.join([...parts, sql`d.id asc`]);
}

interface DocRow {
  id: string;
  image_id: string;
  index_id: string;
  source: SearchSource;
  sort_values: unknown[] | null;
}

/** Runs one search request on PostgreSQL within the caller's scope and answers in Elasticsearch's shape. */
export interface SearchOptions {
  /** Match counts up to which every match is scored (default SCORE_ALL_BELOW); 0: always the top-k lists. */
  scoreAllBelow?: number;
  /**
   * Whether the statistics may count matches and a document read from a scoring list may pass by
   * being there (default true); false: every match is counted and every document checked, as a
   * reference for tests.
   */
  shortcuts?: boolean;
  /** Listed matches per block of every list below which only their blocks are read (default FEW_PER_BLOCK). */
  fewPerBlock?: number;
}

/**
 * A document of a search's page left the index between the statements that found it and the one
 * that reads it: a sync took its image out of the index while people searched. (A page written
 * again keeps its document's id, PgDocumentStore.upsert, and is read as it is now.)
 */
class IndexChanged extends Error {}

export async function runSearch(db: Kysely<DB>, scope: SearchScope, request: SearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
  try {
    return await searchOnce(db, scope, request, options, true);
  } catch (err) {
    if (!(err instanceof IndexChanged)) throw err;
    // Asked again in one snapshot, where every statement sees the index as it was at its start
    // (each statement otherwise sees what was committed when it began).
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => searchOnce(trx, scope, request, options, false));
  }
}

async function searchOnce(db: Kysely<DB>, scope: SearchScope, request: SearchRequest, options: SearchOptions, mayChange: boolean): Promise<SearchResponse> {
  const started = performance.now();
  const indexIds = scope.indices.map((i) => i.id);
  const indexNames = new Map(scope.indices.map((i) => [i.id, i.name]));
  const expander = new TermExpander(db, indexIds, TermExpander.stemmersFor(filteredLanguages(request.query)));
  const compiled = await new QueryCompiler(expander, indexNames).compile(request.query);
  const postFilter = request.postFilter ? await new QueryCompiler(expander, indexNames).compile(request.postFilter) : null;
  const base = sql<SqlBool>`(${scopeSql(scope)} and ${toSql(compiled.predicate)})`;
  const hitsWhere = postFilter ? sql<SqlBool>`(${base} and ${toSql(postFilter.predicate)})` : base;

  const k = request.from + request.size;
  const byScore = request.sort.length === 0 || request.sort[0]!.field === '_score';
  const scoreAllBelow = options.scoreAllBelow ?? SCORE_ALL_BELOW;
  // The matches per language from the term statistics, where they can tell: the language facet
  // needs them exact; the hit count only up to where it stops.
  const shortcuts = options.shortcuts !== false;
  const facetsLanguage = Object.values(request.aggregations).some((a) => a.field === 'language');
  const cap = request.trackTotalHits === true ? null : Math.max(request.trackTotalHits, scoreAllBelow) + 1;
  const blocksMayAnswer = shortcuts && byScore && k > 0 && !postFilter && compiled.scoring.length > 0;
  // Both asked at once: two round trips in the time of one.
  const [coverage, blocked] = await Promise.all([coverageOf(db, scope), blocksMayAnswer ? blockedIndices(db, scope) : null]);
  const fromBlocks = blocked ? await searchBlocks(db, compiled, base, coverage, blocked, k, request.trackTotalHits, options.fewPerBlock) : null;
  if (fromBlocks) {
    const aggregations = await withTextIndex(db, usesTerms(compiled, null), (trx) => aggregate(trx, base, request.aggregations, indexNames, fromBlocks.byLanguage));
    const hits = await presentHits(db, fromBlocks.best.slice(request.from), request, compiled, indexNames, mayChange);
    return respond(started, fromBlocks.total, hits, request, aggregations);
  }
  const languageCounts = shortcuts ? await countByLanguage(db, scope, coverage, compiled.predicate.countable, facetsLanguage ? null : cap) : null;
  // The count comes first: a small match set is scored whole, a large one through the top k.
  const counted =
    languageCounts && !postFilter
      ? totalOf(languageCounts, request.trackTotalHits, scoreAllBelow)
      : await withTextIndex(db, usesTerms(compiled, postFilter), (trx) => countMatches(trx, hitsWhere, request.trackTotalHits, scoreAllBelow));
  const exactCounts = languageCounts && !languageCounts.atLeast ? languageCounts.byLanguage : null;
  const [page, aggregations] = await Promise.all([
    k === 0
      ? Promise.resolve([])
      : byScore
        ? topByScore(db, compiled, scope, hitsWhere, k, request, counted.few, shortcuts ? listKnowledge(compiled, postFilter, coverage) : undefined, Boolean(compiled.predicate.listable && (!postFilter || postFilter.predicate.listable)))
        : topBySort(db, compiled, scope, hitsWhere, k, request),
    withTextIndex(db, usesTerms(compiled, null), (trx) => aggregate(trx, base, request.aggregations, indexNames, exactCounts)),
  ]);
  const hits = await presentHits(db, page.slice(request.from), request, compiled, indexNames, mayChange);
  return respond(started, counted.total, hits, request, aggregations);
}

function respond(
  started: number,
  total: SearchResponse['hits']['total'],
  hits: SearchHit[],
  request: SearchRequest,
  aggregations: NonNullable<SearchResponse['aggregations']>,
): SearchResponse {
  const scores = hits.map((h) => h._score).filter((s): s is number => s !== null);
  return {
    took: Math.round(performance.now() - started),
    timed_out: false,
    hits: { total, max_score: scores.length ? Math.max(...scores) : null, hits },
    ...(Object.keys(request.aggregations).length ? { aggregations } : {}),
  };
}

/**
 * A search by relevance from the posting blocks (list-search.ts), where they answer it whole: the
 * caller reads every document of the indices, every document is in blocks, and either the lists
 * are the matches (one of some words in any field, maybe in some languages: they also count the
 * total and the languages) or the GIN index lists the matches first (a phrase, all words, column
 * filters), up to LIST_MATCHES_UP_TO, with their languages. Null where they do not.
 */
async function searchBlocks(
  db: Kysely<DB>,
  compiled: CompiledQuery,
  where: RawBuilder<SqlBool>,
  coverage: Coverage,
  indices: BlockedIndex[],
  k: number,
  track: number | true,
  fewPerBlock?: number,
): Promise<{ best: PageEntry[]; total: SearchResponse['hits']['total']; byLanguage: Map<string, number> } | null> {
  const countable = compiled.predicate.countable;
  const vouched = Boolean(countable?.terms);
  if (!coverage.everyDocumentOfIndices || !(vouched || compiled.predicate.listable)) return null;
  let members: Float64Array | null = null;
  let counted: Map<string, number> | null = null;
  if (!vouched) {
    const statement = sql<{ id: string; language: string | null }>`select d.id, d.language from search_document d where ${where} limit ${LIST_MATCHES_UP_TO + 1}`;
    const key = listingKey(indices, statement.compile(db));
    let listing = listings.get(key);
    if (!listing) {
      const listed = await withTextIndex(db, true, (trx) => statement.execute(trx));
      if (listed.rows.length > LIST_MATCHES_UP_TO) return null;
      const byLanguage = new Map<string, number>();
      for (const row of listed.rows) byLanguage.set(row.language ?? '', (byLanguage.get(row.language ?? '') ?? 0) + 1);
      listing = { members: Float64Array.from(listed.rows.map((r) => Number(r.id))).sort(), counted: byLanguage };
      listings.set(key, listing);
    }
    members = listing.members;
    counted = new Map(listing.counted);
  }
  const lists = new ListSearch(db, compiled.scoring);
  const [, known] = await Promise.all([lists.prepare(indices, members, fewPerBlock), vouched ? languageIdsOf(db, countable!.languages) : null]);
  const languages = known && countable!.languages ? known.ids : null;
  if (!counted) {
    counted = new Map();
    for (const [id, n] of lists.count({ languages, members: null })) counted.set(known!.codes.get(id) ?? '', n);
  }
  const n = [...counted.values()].reduce((a, b) => a + b, 0);
  const total: SearchResponse['hits']['total'] = track === true || n <= track ? { value: n, relation: 'eq' } : { value: track, relation: 'gte' };
  const best: PageEntry[] = lists.best(k, { languages, members });
  if (members && best.length < k) {
    // Listed matches no scoring term reaches (a filter with an optional word) score 0, in index order.
    const seen = new Set(best.map((b) => b.docId));
    for (const doc of members) {
      if (best.length >= k) break;
      if (!seen.has(String(doc))) best.push({ docId: String(doc), score: 0 });
    }
  }
  return { best, total, byLanguage: counted };
}

/** What a document's presence in a scoring list tells of it (see TopK). */
function listKnowledge(compiled: CompiledQuery, postFilter: CompiledQuery | null, coverage: Coverage): ListKnowledge {
  const countable = compiled.predicate.countable;
  return {
    passesBy: !postFilter && countable?.terms ? { languages: countable.languages } : null,
    readsEverything: coverage.everyDocument,
  };
}

interface PageEntry {
  docId: string;
  score: number | null;
}

async function topByScore(
  db: Kysely<DB>,
  compiled: CompiledQuery,
  scope: SearchScope,
  where: RawBuilder<SqlBool>,
  k: number,
  request: SearchRequest,
  few: boolean,
  knowledge: ListKnowledge | undefined,
  listable: boolean,
): Promise<PageEntry[]> {
  const topk = new TopK(db, compiled.scoring, scope, where, knowledge);
  await topk.prepare(scope.indices.map((i) => i.id));
  if (few && compiled.scoring.length) {
    // So few matches that scoring them all is cheaper than reading the lists until they settle
    // (a phrase of common words, words that rarely meet).
    const all = await withTextIndex(db, compiled.predicate.kind !== 'const', (trx) => sql<{ id: string }>`select d.id from search_document d where ${where}`.execute(trx));
    const scores = await topk.scoresOf(all.rows.map((r) => r.id));
    return [...scores]
      .map(([docId, score]) => ({ docId, score }))
      .sort((a, b) => b.score - a.score || Number(a.docId) - Number(b.docId))
      .slice(0, k);
  }
  const best = await (await narrowedToMatches(db, compiled, scope, where, knowledge, listable, topk)).best(k);
  if (best.length >= k) return best;
  // Matches no scoring term reaches (a bool of filters, a should nobody must match) score 0 and come after, in index order.
  const seen = best.map((b) => b.docId);
  const rest = await sql<{ id: string }>`
    select d.id from search_document d where ${where} and not (d.id = any(${seen}::bigint[])) order by d.id limit ${k - best.length}`.execute(db);
  const restScores = compiled.scoring.length ? await topk.scoresOf(rest.rows.map((r) => r.id)) : new Map<string, number>();
  const constant = compiled.scoring.length ? 0 : queryBoost(request.query);
  return [...best, ...rest.rows.map((r) => ({ docId: r.id, score: restScores.get(r.id) ?? constant }))];
}

/** Matches up to which a query the GIN index lists cheaply is listed before the top-k lists are read. */
const LIST_MATCHES_UP_TO = 100_000;

/**
 * For a query whose lists do not vouch for their documents (a phrase, words that must all occur,
 * a filter besides the language) but whose matches the GIN index lists without reading any
 * document's terms: the matches are listed once and the top-k lists read for them alone, instead
 * of every document the lists show being checked against the query.
 */
async function narrowedToMatches(
  db: Kysely<DB>,
  compiled: CompiledQuery,
  scope: SearchScope,
  where: RawBuilder<SqlBool>,
  knowledge: ListKnowledge | undefined,
  listable: boolean,
  topk: TopK,
): Promise<TopK> {
  if (!knowledge || knowledge.passesBy || !listable || compiled.scoring.length === 0) return topk;
  const listed = await withTextIndex(db, true, (trx) =>
    sql<{ id: string }>`select d.id from search_document d where ${where} limit ${LIST_MATCHES_UP_TO + 1}`.execute(trx),
  );
  if (listed.rows.length > LIST_MATCHES_UP_TO) return topk;
  const members = listed.rows.map((r) => r.id);
  const narrowed = new TopK(db, compiled.scoring, scope, where, { passesBy: { languages: null }, readsEverything: true, members });
  await narrowed.prepare(scope.indices.map((i) => i.id));
  return narrowed;
}

/** The score Elasticsearch gives every match of a query without scoring terms. */
function queryBoost(q: Query): number {
  return q.kind === 'match_none' ? 0 : q.boost;
}

async function topBySort(
  db: Kysely<DB>,
  compiled: CompiledQuery,
  scope: SearchScope,
  where: RawBuilder<SqlBool>,
  k: number,
  request: SearchRequest,
): Promise<PageEntry[]> {
  const rows = await sql<{ id: string }>`
    select d.id from search_document d where ${where} order by ${sortSql(request.sort)} limit ${k}`.execute(db);
  const ids = rows.rows.map((r) => r.id);
  if (!request.trackScores) return ids.map((docId) => ({ docId, score: null }));
  const topk = new TopK(db, compiled.scoring, scope, where);
  const scores = await topk.scoresOf(ids);
  return ids.map((docId) => ({ docId, score: scores.get(docId) ?? 0 }));
}

/** Whether a query's predicate looks into the documents' terms (a tsquery). */
function usesTerms(compiled: CompiledQuery, postFilter: CompiledQuery | null): boolean {
  return [compiled, postFilter].some((c) => c !== null && c.predicate.kind !== 'const');
}

/**
 * Counting, aggregating and listing a small match set walk every match. The planner prices a
 * tsquery match on a document as cheap and often reads the whole table to test it row by row,
 * unpacking each page's terms; the GIN index finds the matches without. So these statements run
 * with sequential scans ruled out.
 */
async function withTextIndex<T>(db: Kysely<DB>, textual: boolean, run: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (!textual) return run(db);
  return withLocalSettings(db, { enable_seqscan: 'off' }, run);
}

/**
 * Matches up to which a search scores every match rather than reading lists best first: below it,
 * reading all their postings at once is cheaper than the rounds the top-k lists need when the best
 * documents score alike (measured: two-term queries of 2,000-2,700 matches 145 ms -> 51 ms).
 */
const SCORE_ALL_BELOW = 5_000;

/** The hits' total from counts per language, as the request asks it counted. */
function totalOf(counts: LanguageCounts, track: number | true, scoreAllBelow: number): { total: SearchResponse['hits']['total']; few: boolean } {
  const n = counts.total;
  const few = !counts.atLeast && n <= scoreAllBelow;
  if (track === true || (n <= track && !counts.atLeast)) return { total: { value: n, relation: 'eq' }, few };
  return { total: { value: track, relation: 'gte' }, few };
}

/** The hits' total as the request asks it counted, and whether the matches are few enough to score all. */
async function countMatches(
  db: Kysely<DB>,
  where: RawBuilder<SqlBool>,
  track: number | true,
  scoreAllBelow: number,
): Promise<{ total: SearchResponse['hits']['total']; few: boolean }> {
  const cap = track === true ? null : Math.max(track, scoreAllBelow);
  const counted = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from search_document d where ${where} ${cap === null ? sql`` : sql`limit ${cap + 1}`}) x`.execute(db);
  const n = counted.rows[0]!.n;
  const few = n <= scoreAllBelow;
  if (track === true || n <= track) return { total: { value: n, relation: 'eq' }, few };
  return { total: { value: track, relation: 'gte' }, few };
}

const AGG_KEYS: Record<string, RawBuilder<unknown>> = {
  imageSetUuid: sql`unnest(d.set_ids)::text`,
  imageSet: sql`jsonb_array_elements_text(d.source->'imageSet')`,
  index: sql`d.index_id::text`,
  imageUuid: sql`d.image_id::text`,
  date: sql`(extract(epoch from d.date) * 1000)::bigint`,
};

async function aggregate(
  db: Kysely<DB>,
  where: RawBuilder<SqlBool>,
  aggregations: Record<string, TermsAggregation>,
  indexNames: Map<string, string>,
  /** The matches per language ('' for none), when the statistics counted them. */
  languageCounts: Map<string, number> | null,
): Promise<NonNullable<SearchResponse['aggregations']>> {
  const result: NonNullable<SearchResponse['aggregations']> = {};
  for (const [name, agg] of Object.entries(aggregations)) {
    const key = AGG_KEYS[agg.field] ?? SORT_EXPRESSIONS[agg.field];
    const rows =
      agg.field === 'language' && languageCounts
        ? [...languageCounts].filter(([language, n]) => language !== '' && n > 0).map(([language, n]) => ({ key: language, n }))
        : (
            await sql<{ key: string | number | null; n: number }>`
              select k as key, count(*)::int as n from (select ${key} as k from search_document d where ${where}) x
              where k is not null group by k`.execute(db)
          ).rows;
    let buckets = rows.map((r) => ({
      key: agg.field === 'index' ? (indexNames.get(String(r.key)) ?? String(r.key)) : typeof r.key === 'string' && /^-?\d+$/.test(r.key) && agg.field === 'date' ? Number(r.key) : r.key!,
      doc_count: r.n,
    }));
    buckets = buckets.filter((b) => b.doc_count >= agg.minDocCount);
    const dir = agg.order.direction === 'asc' ? 1 : -1;
    buckets.sort((a, b) =>
      agg.order.by === '_count' ? dir * (a.doc_count - b.doc_count) || compareKeys(a.key, b.key) : dir * compareKeys(a.key, b.key),
    );
    const shown = buckets.slice(0, agg.size);
    const other = buckets.slice(agg.size).reduce((sum, b) => sum + b.doc_count, 0);
    result[name] = { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: shown };
  }
  return result;
}

function compareKeys(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

async function presentHits(
  db: Kysely<DB>,
  page: PageEntry[],
  request: SearchRequest,
  compiled: CompiledQuery,
  indexNames: Map<string, string>,
  mayChange: boolean,
): Promise<SearchHit[]> {
  if (page.length === 0) return [];
  const sortValues = request.sort.filter((s) => s.field !== '_score');
  const rows = await sql<DocRow>`
    select d.id, d.image_id, d.index_id, d.source,
      ${sortValues.length ? sql`array[${sql.join(sortValues.map((s) => (s.field === '_doc' ? sql`d.id::text` : sql`(${SORT_EXPRESSIONS[s.field as keyof typeof SORT_EXPRESSIONS]})::text`)))}]` : sql`null`} as sort_values
    from search_document d where d.id = any(${page.map((p) => p.docId)}::bigint[])`.execute(db);
  const byId = new Map(rows.rows.map((r) => [String(r.id), r]));
  // In one snapshot every id is there, unless a kept list (blocks.ts) was read after a later write.
  if (mayChange && rows.rows.length < new Set(page.map((p) => String(p.docId))).size) throw new IndexChanged();
  return page.flatMap(({ docId, score }) => {
    const row = byId.get(String(docId));
    if (!row) return [];
    const hit: SearchHit = { _index: indexNames.get(row.index_id) ?? row.index_id, _id: row.image_id, _score: score };
    const source = filterSource(row.source, request.source);
    if (source) hit._source = source;
    if (request.highlight) {
      const highlight = highlightFields(row.source, request.highlight, compiled.highlight);
      if (Object.keys(highlight).length) hit.highlight = highlight;
    }
    if (request.sort.length) hit.sort = sortValuesOf(request.sort, row, score);
    return [hit];
  });
}

function sortValuesOf(sort: SortClause[], row: DocRow, score: number | null): (string | number | null)[] {
  let i = 0;
  return sort.map((s) => {
    if (s.field === '_score') return score;
    const value = row.sort_values?.[i++];
    if (value === null || value === undefined) return null;
    const n = Number(value);
    return typeof value === 'string' && value.trim() !== '' && Number.isFinite(n) && s.field !== 'label' && s.field !== 'language' ? n : String(value);
  });
}

function matchesPattern(name: string, pattern: string): boolean {
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(name);
}

function filterSource(source: SearchSource, filter: SearchRequest['source']): Partial<SearchSource> | null {
  if (filter === false) return null;
  return Object.fromEntries(
    Object.entries(source).filter(
      ([name]) =>
        (filter.includes === null || filter.includes.some((p) => matchesPattern(name, p))) && !filter.excludes.some((p) => matchesPattern(name, p)),
    ),
  ) as Partial<SearchSource>;
}
