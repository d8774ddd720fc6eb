import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import type { SearchScope } from '../query.js';
import { type Countable, lexeme } from './compile.js';
import { withLocalSettings } from './local-settings.js';

/** Matches per language ('' for documents without one); `atLeast` when counting stopped early. */
export interface LanguageCounts {
  byLanguage: Map<string, number>;
  total: number;
  atLeast: boolean;
}

/**
 * Counts the matches of a countable query (one of some terms in any field, maybe in some
 * languages) from the term statistics instead of visiting every match: the term with the most
 * documents counts from its statistics, and only the documents the other terms add are visited
 * (`others & !first`), grouped by language. So a common word's tens of thousands of matches cost
 * one statistics read, and two common words cost what the second adds.
 *
 * The statistics count every document of the indices, so they answer only a caller who may read
 * every set the documents name (null otherwise: the caller's matches are counted one by one).
 * With `enough`, counting stops once the first term alone reaches it (`atLeast`).
 */
export async function countByLanguage(
  db: Kysely<DB>,
  scope: SearchScope,
  coverage: Coverage,
  countable: Countable | undefined,
  enough: number | null,
): Promise<LanguageCounts | null> {
  const terms = countable?.terms;
  if (!terms || terms.length === 0 || scope.indices.length === 0 || !coverage.everyDocumentOfIndices) return null;
  const indexIds = scope.indices.map((i) => i.id);
  const languages = countable.languages;

  const stats = await sql<{ term: string; language: string; df: number }>`
    select t.term, s.language, sum(s.df)::int as df
    from unnest(${terms}::text[]) as x(term) join search_term t on t.term = x.term
      join search_term_language_stat s on s.term_id = t.id and s.index_id = any(${indexIds}::uuid[])
    ${languages ? sql`where s.language = any(${languages}::text[])` : sql``}
    group by 1, 2`.execute(db);
  const perTerm = new Map<string, Map<string, number>>();
  for (const row of stats.rows) {
    let byLanguage = perTerm.get(row.term);
    if (!byLanguage) perTerm.set(row.term, (byLanguage = new Map()));
    byLanguage.set(row.language, row.df);
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const ranked = [...perTerm].sort((a, b) => sum(b[1]) - sum(a[1]) || a[0].localeCompare(b[0]));
  if (ranked.length === 0) return { byLanguage: new Map(), total: 0, atLeast: false };

  const [first, firstCounts] = ranked[0]!;
  const byLanguage = new Map(firstCounts);
  const firstTotal = sum(firstCounts);
  if (enough !== null && firstTotal >= enough) return { byLanguage, total: firstTotal, atLeast: true };
  const others = ranked.slice(1).map(([term]) => term);
  if (others.length) {
    const query = `(${others.map((t) => lexeme(t, '')).join(' | ')}) & !${lexeme(first, '')}`;
    // The GIN index finds what the other terms add; a plan that tests every document would not.
    const added = await withLocalSettings(db, { enable_seqscan: 'off' }, (trx) =>
      sql<{ language: string; n: number }>`
        select coalesce(d.language, '') as language, count(*)::int as n from search_document d
        where (d.index_id = any(${indexIds}::uuid[])) is true
          ${languages ? sql`and (d.language = any(${languages}::text[])) is true` : sql``}
          and d.terms @@ ${query}::tsquery
        group by 1`.execute(trx),
    );
    for (const row of added.rows) byLanguage.set(row.language, (byLanguage.get(row.language) ?? 0) + row.n);
  }
  return { byLanguage, total: sum(byLanguage), atLeast: false };
}

/** How much of the search documents a caller may read. */
export interface Coverage {
  /** Every document of the indices searched: the caller may read every set their documents name. */
  everyDocumentOfIndices: boolean;
  /** Every document in the tables: that, and no other index holds any. */
  everyDocument: boolean;
}

export async function coverageOf(db: Kysely<DB>, scope: SearchScope): Promise<Coverage> {
  const indexIds = scope.indices.map((i) => i.id);
  const row = await sql<{ hidden: boolean; elsewhere: boolean }>`
    select
      ${scope.setIds === null ? sql`false` : sql`exists (select 1 from search_set_stat where index_id = any(${indexIds}::uuid[]) and docs > 0 and not (set_id = any(${scope.setIds}::uuid[])))`} as hidden,
      exists (select 1 from search_field_stat where field = 0 and doc_count > 0 and not (index_id = any(${indexIds}::uuid[]))) as elsewhere`.execute(db);
  const { hidden, elsewhere } = row.rows[0]!;
  return { everyDocumentOfIndices: !hidden, everyDocument: !hidden && !elsewhere };
}
