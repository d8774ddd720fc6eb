import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { readableSetIds } from '../imagesets/access-repository.js';

/** The scope of an API key's searches and an owner-less file's bytes. */
export const NO_OWNER = '00000000-0000-0000-0000-000000000000';

/**
 * Whose records a statistic counts: every live set (an administrator), or these sets (the live sets
 * the caller may read); the caller's own searches and files, or everyone's.
 */
export type StatisticScope = { all: true } | { all: false; setIds: string[]; userId: string | null };

/** Counts kept per set (migration 0019); `variant` narrows them with a LIKE pattern. */
export type SetCounted = { kind: 'image' | 'transcription' | 'snippet'; variant?: string };
/** Counts kept per user or owner. */
export type OwnerCounted = { kind: 'similarity-search' | 'stored-files' | 'stored-bytes'; variant?: string };
export type Counted = SetCounted | OwnerCounted;

export interface CountRow {
  key: string;
  n: number;
}

/** A kind's counts in all, per UTC day (recent ones), per month and per variant. */
export interface CountSummary {
  total: number;
  perDay: CountRow[];
  perMonth: CountRow[];
  perVariant: CountRow[];
}

const SET_KINDS = new Set(['image', 'transcription', 'snippet']);

/** The SQL of the statistics: sums of the counts the triggers keep, never a scan of the records. */
export class StatisticsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    /** The search tables (PGlite's search database, or `db`). */
    private readonly search: Kysely<DB> = db,
  ) {}

  /**
   * The counts of one kind in the scope, read once and summed four ways: in all, per day from
   * `since` ('YYYY-MM-DD', UTC) on, per month and per variant; days and months oldest first.
   */
  async summary(counted: Counted, scope: StatisticScope, since: string): Promise<CountSummary> {
    const { rows } = await sql<{ grouping: keyof CountSummary; key: string | null; n: string | number }>`
      select case when grouping(d) = 0 then 'perDay' when grouping(m) = 0 then 'perMonth' when grouping(v) = 0 then 'perVariant' else 'total' end as grouping,
        coalesce(d, m, v) as key, sum(n) as n
      from (
        select case when c.day >= ${since}::date then to_char(c.day, 'YYYY-MM-DD') end as d,
          to_char(date_trunc('month', c.day), 'YYYY-MM') as m, c.variant as v, c.n
        from statistic_count c ${this.scopeJoin(counted, scope)}
        where c.kind = ${counted.kind}
          and ${counted.variant ? sql`c.variant like ${counted.variant}` : sql`true`}
          and ${this.scopeCondition(counted, scope)}
      ) counted
      group by grouping sets ((d), (m), (v), ())
      having sum(n) <> 0
      order by 1, 2`.execute(this.db);
    const summary: CountSummary = { total: 0, perDay: [], perMonth: [], perVariant: [] };
    for (const row of rows) {
      if (row.grouping === 'total') summary.total = Number(row.n);
      // The days before `since` fall together under no key.
      else if (row.key !== null) summary[row.grouping].push({ key: row.key, n: Number(row.n) });
    }
    return summary;
  }

  /** Search documents per index, of the sets in the scope (the search engine's own per-set counts). */
  async searchDocumentsByIndex(scope: StatisticScope): Promise<CountRow[]> {
    // The search tables are joined with the others here, not in SQL: they may be a database of their own.
    const counts = await sql<{ index_id: string; set_id: string; docs: number }>`
      select index_id, set_id, docs from search_set_stat
      where docs > 0 and ${scope.all ? sql`true` : sql`set_id = any(${scope.setIds}::uuid[])`}`.execute(this.search);
    if (counts.rows.length === 0) return [];
    const named = await sql<{ id: string; name: string }>`
      select id, name from search_index where id = any(${[...new Set(counts.rows.map((r) => r.index_id))]}::uuid[])`.execute(this.db);
    const names = new Map(named.rows.map((r) => [r.id, r.name]));
    const live = scope.all
      ? new Set(
          (
            await sql<{ id: string }>`
              select id from document_image_set where deleted_at is null and id = any(${[...new Set(counts.rows.map((r) => r.set_id))]}::uuid[])`.execute(this.db)
          ).rows.map((r) => r.id),
        )
      : null;
    const perIndex = new Map<string, number>();
    for (const row of counts.rows) {
      const name = names.get(row.index_id);
      if (name === undefined || (live && !live.has(row.set_id))) continue;
      perIndex.set(name, (perIndex.get(name) ?? 0) + Number(row.docs));
    }
    return [...perIndex]
      .filter(([, n]) => n > 0)
      .map(([key, n]) => ({ key, n }))
      .sort((a, b) => b.n - a.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Image sets created per month, of the live sets in the scope (sets are few: read directly). */
  async setsPerMonth(scope: StatisticScope): Promise<CountRow[]> {
    const { rows } = await sql<{ key: string; n: string | number }>`
      select to_char(date_trunc('month', s.created_at at time zone 'UTC'), 'YYYY-MM') as key, count(*) as n
      from document_image_set s
      where s.deleted_at is null and ${scope.all ? sql`true` : sql`s.id = any(${scope.setIds}::uuid[])`}
      group by 1 order by 1`.execute(this.db);
    return rows.map((r) => ({ key: r.key, n: Number(r.n) }));
  }

  /** The images held by the most populous sets of the scope, for a share of images per set. */
  async imagesPerSet(scope: StatisticScope): Promise<CountRow[]> {
    const { rows } = await sql<{ key: string; n: string | number }>`
      select coalesce(s.pretty_name, s.name) as key, sum(c.n) as n
      from statistic_count c join document_image_set s on s.id = c.scope and s.deleted_at is null
      where c.kind = 'image' and ${scope.all ? sql`true` : sql`c.scope = any(${scope.setIds}::uuid[])`}
      group by s.id, 1 having sum(c.n) > 0 order by 2 desc, 1`.execute(this.db);
    return rows.map((r) => ({ key: r.key, n: Number(r.n) }));
  }

  /** The live sets a caller may read (a scope that is not everything). */
  readableSets(scope: VisibilityScope): Promise<string[]> {
    return readableSetIds(this.db, scope);
  }

  /** The labels of Siamese network models by their ids. */
  async modelLabels(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql<{ id: string; label: string }>`
      select id::text as id, label from pim_model where id::text = any(${ids}::text[])`.execute(this.db);
    return new Map(rows.map((r) => [r.id, r.label]));
  }

  /** Counts a similarity search of this kind by this user (null: an API key) today. */
  async countSearch(userId: string | null, kind: string): Promise<void> {
    await sql`
      insert into statistic_count as c (kind, variant, scope, day, n)
      values ('similarity-search', ${kind}, ${userId ?? NO_OWNER}::uuid, statistic_day(now()), 1)
      on conflict (kind, scope, day, variant) do update set n = c.n + 1`.execute(this.db);
  }

  private scopeJoin(counted: Counted, scope: StatisticScope): RawBuilder<unknown> {
    // An administrator's counts are those of every live set: a deleted set's rows are left out.
    return SET_KINDS.has(counted.kind) && scope.all ? sql`join document_image_set s on s.id = c.scope and s.deleted_at is null` : sql``;
  }

  private scopeCondition(counted: Counted, scope: StatisticScope): RawBuilder<unknown> {
    if (scope.all) return sql`true`;
    if (SET_KINDS.has(counted.kind)) return sql`c.scope = any(${scope.setIds}::uuid[])`;
    return sql`c.scope = ${scope.userId ?? NO_OWNER}::uuid`;
  }
}
