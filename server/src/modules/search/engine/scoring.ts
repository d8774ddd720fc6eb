import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import type { SearchScope } from '../query.js';
import type { ScoringClause } from './compile.js';
import { FIELD_CODES, bm25Idf, bm25Weight } from './fields.js';

/** One posting list a search reads: a term in a field, with what a unit of its weight is worth. */
interface List {
  clause: number;
  group: number;
  field: number;
  termId: number;
  coefficient: number;
  /** The weight of the last posting read; 0 once the list is read to its end. */
  last: number;
  lastDoc: string | null;
  done: boolean;
}

export interface Scored {
  docId: string;
  score: number;
}

/** What reading a list already tells of a document, so less is checked per document seen. */
export interface ListKnowledge {
  /** A document in any list passes the query if its language is one of these (null: any): the query asks for nothing but one of the lists' terms in any field, and maybe a language. */
  passesBy: { languages: string[] | null } | null;
  /** The caller may read every document in the search tables: no document need be checked against the scope. */
  readsEverything: boolean;
  /** The matches, listed beforehand (the lists are read for these documents only; they pass). */
  members?: string[];
}

/** Document counts and frequencies of the searched indices, for idf, and each index's average field lengths. */
export async function statistics(db: Kysely<DB>, indexIds: string[], termIds: number[]) {
  const [fields, df] = await Promise.all([
    sql<{ index_id: string; field: number; doc_count: string; total_length: string }>`
      select index_id, field, doc_count, total_length from search_field_stat where index_id = any(${indexIds}::uuid[])`.execute(db),
    sql<{ term_id: number; field: number; df: number }>`
      select term_id, field, sum(df)::int as df from search_term_stat
      where index_id = any(${indexIds}::uuid[]) and term_id = any(${termIds}::int[]) group by term_id, field`.execute(db),
  ]);
  const docCount = new Map<number, number>();
  const averages = new Map<string, number[]>();
  for (const row of fields.rows) {
    docCount.set(row.field, (docCount.get(row.field) ?? 0) + Number(row.doc_count));
    const a = averages.get(row.index_id) ?? [0, 0, 0];
    a[row.field] = Number(row.doc_count) > 0 ? Number(row.total_length) / Number(row.doc_count) : 0;
    averages.set(row.index_id, a);
  }
  return { docCount, averages, df: new Map(df.rows.map((r) => [`${r.term_id}:${r.field}`, r.df])) };
}

/**
 * A posting of a document being scored, weighed as the blocks weigh it (blocks.ts): with the
 * index's average length of now, not the one stored with the posting when it was written.
 */
type PostingRow = { doc_id: string; field: number; term_id: number; tf: number; length: number; index_id: string };

/** The k-th largest value; -Infinity when there are fewer than k. */
function kthLargest(values: number[], k: number): number {
  if (values.length < k) return -Infinity;
  return values.sort((a, b) => b - a)[k - 1]!;
}

function groupByDoc(rows: PostingRow[]): Map<string, PostingRow[]> {
  const byDoc = new Map<string, PostingRow[]>();
  for (const row of rows) {
    const list = byDoc.get(row.doc_id);
    if (list) list.push(row);
    else byDoc.set(row.doc_id, [row]);
  }
  return byDoc;
}

/**
 * Scores documents by BM25 and finds the best k without scoring every match (the threshold
 * algorithm): each term's postings are read best weight first, in growing depth; a document seen
 * is scored exactly; reading stops when k documents that match the query score at least what any
 * unseen document could still reach.
 */
export class TopK {
  private lists: List[] = [];
  /** The lists of each "term:field", for scoring a document from its postings. */
  private readonly byTerm = new Map<string, List[]>();
  private readonly scores = new Map<string, number>();
  private readonly matching = new Set<string>();
  private readonly checked = new Set<string>();
  private averages = new Map<string, number[]>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clauses: ScoringClause[],
    /** What the caller may search: a posting is read only if its document is in it. */
    private readonly scope: SearchScope,
    /** The whole query: a document seen in a list must also pass it. */
    private readonly predicate: RawBuilder<SqlBool>,
    private readonly knowledge: ListKnowledge = { passesBy: null, readsEverything: false },
  ) {}

  private allTermIds(): number[] {
    return [...new Set(this.clauses.flatMap((c) => c.groups.flatMap((g) => g.variants.map((v) => v.termId))))];
  }

  async prepare(indexIds: string[]): Promise<void> {
    const stats = await statistics(this.db, indexIds, this.allTermIds());
    this.averages = stats.averages;
    this.clauses.forEach((clause, c) =>
      clause.groups.forEach((group, g) => {
        for (const variant of group.variants) {
          for (const f of clause.fields) {
            const field = FIELD_CODES[f.field];
            const df = stats.df.get(`${variant.termId}:${field}`) ?? 0;
            if (df === 0) continue;
            const coefficient = clause.boost * f.boost * variant.factor * bm25Idf(stats.docCount.get(field) ?? df, df);
            const list: List = { clause: c, group: g, field, termId: variant.termId, coefficient, last: Infinity, lastDoc: null, done: false };
            this.lists.push(list);
            const key = `${variant.termId}:${field}`;
            this.byTerm.set(key, [...(this.byTerm.get(key) ?? []), list]);
          }
        }
      }),
    );
  }

  /** The score of a document from its postings of the query's terms. */
  private score(postings: PostingRow[]): number {
    const weights = new Map(postings.map((p) => [`${p.term_id}:${p.field}`, bm25Weight(p.tf, p.length, this.averages.get(p.index_id)?.[p.field] ?? 0)]));
    return this.scoreOf((list) => weights.get(`${list.termId}:${list.field}`) ?? 0);
  }

  /** What a document not seen yet could score at most: each list's weight where it stopped. */
  private bound(): number {
    return this.scoreOf((list) => (list.done ? 0 : list.last));
  }

  /**
   * Reads the next `count` postings of every unfinished list in one statement: a branch per list,
   * each an index scan from where the list stopped. Documents outside the caller's scope are passed
   * over here; the rest of the query is checked on the documents seen.
   */
  private async readAll(lists: List[], count: number): Promise<{ list: List; doc_id: string; weight: number }[]> {
    const { passesBy, readsEverything, members } = this.knowledge;
    const languages = passesBy?.languages ?? null;
    // The document is read only for what the postings cannot tell: the caller's scope, the language the query asks for.
    const document = !members && (!readsEverything || languages !== null);
    const conditions = members
      ? [sql`p.doc_id = any(${members}::bigint[])`]
      : [
          ...(readsEverything ? [] : [sql`d.index_id = any(sc.idx) and (sc.sets is null or d.set_ids && sc.sets)`]),
          ...(languages ? [sql`(d.language = any(${languages}::text[])) is true`] : []),
        ];
    const branches = lists.map((list, i) => {
      const after = list.lastDoc === null ? sql`true` : sql`(p.weight, p.doc_id) < (${list.last}::real, ${list.lastDoc}::bigint)`;
      return sql`(select ${i}::int as list, p.doc_id, p.weight from search_posting p ${document ? sql`join search_document d on d.id = p.doc_id, sc` : sql``}
        where p.term_id = ${list.termId} and p.field = ${list.field} and ${after} ${conditions.length ? sql`and ${sql.join(conditions, sql` and `)}` : sql``}
        order by p.weight desc, p.doc_id desc limit ${count})`;
    });
    const rows = await sql<{ list: number; doc_id: string; weight: number }>`
      with sc as (select ${this.scope.indices.map((i) => i.id)}::uuid[] as idx, ${this.scope.setIds}::uuid[] as sets)
      ${sql.join(branches, sql` union all `)}`.execute(this.db);
    const read = new Map<number, { doc_id: string; weight: number }[]>();
    for (const row of rows.rows) {
      const list = read.get(row.list) ?? [];
      list.push(row);
      read.set(row.list, list);
    }
    lists.forEach((list, i) => {
      const got = read.get(i) ?? [];
      // union all keeps each branch's order; sorting again costs little and does not rely on it.
      got.sort((a, b) => b.weight - a.weight || Number(b.doc_id) - Number(a.doc_id));
      if (got.length < count) list.done = true;
      const lastRow = got.at(-1);
      if (lastRow) {
        list.last = lastRow.weight;
        list.lastDoc = lastRow.doc_id;
      }
    });
    return rows.rows.map((r) => ({ list: lists[r.list]!, doc_id: r.doc_id, weight: r.weight }));
  }

  private async scoreNew(docIds: string[]): Promise<void> {
    const fresh = docIds.filter((id) => !this.checked.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.checked.add(id);
    // Read through the lists' conditions, a document passes the query by being there.
    const ids = this.knowledge.passesBy
      ? fresh
      : (await sql<{ id: string }>`select d.id from search_document d where d.id = any(${fresh}::bigint[]) and ${this.predicate}`.execute(this.db)).rows.map((r) => r.id);
    if (ids.length === 0) return;
    for (const id of ids) this.matching.add(id);
    const byDoc = await this.postingsOf(ids);
    for (const id of ids) this.scores.set(id, this.score(byDoc.get(id) ?? []));
  }

  private ranked(): Scored[] {
    return [...this.matching]
      .map((docId) => ({ docId, score: this.scores.get(docId)! }))
      .sort((a, b) => b.score - a.score || Number(a.docId) - Number(b.docId));
  }

  /** The best `k` matching documents, best first. */
  async best(k: number): Promise<Scored[]> {
    if (this.lists.length === 0 || k === 0) return [];
    let depth = Math.max(2 * k, 64);
    let read = 0;
    for (;;) {
      const step = depth - read;
      const rows = await this.readAll(this.lists.filter((l) => !l.done), step);
      read = depth;
      if (this.knowledge.passesBy) await this.boundAndScore(rows, k);
      else await this.scoreNew([...new Set(rows.map((r) => r.doc_id))]);
      const ranked = this.ranked();
      const bound = this.bound();
      const settled = ranked.length >= k && ranked[k - 1]!.score >= bound;
      if (settled || this.lists.every((l) => l.done)) return ranked.slice(0, k);
      depth *= 4;
    }
  }

  /** Weights read from the lists of documents not scored exactly yet: doc -> "term:field" -> weight. */
  private readonly partial = new Map<string, Map<string, number>>();

  /**
   * Every document read passes the query (the lists vouch for it), so what the lists showed of it
   * bounds its score: at least its weights read so far, at most that plus, for each list it was
   * not seen in yet, the weight that list stopped at. Only documents whose most could still reach
   * the k-th best least are scored exactly from their postings: a common word's list shows
   * thousands of documents that the query's other words rule out without a look.
   */
  private async boundAndScore(rows: { list: List; doc_id: string; weight: number }[], k: number): Promise<void> {
    for (const row of rows) {
      if (this.scores.has(row.doc_id)) continue;
      let known = this.partial.get(row.doc_id);
      if (!known) this.partial.set(row.doc_id, (known = new Map()));
      known.set(`${row.list.termId}:${row.list.field}`, row.weight);
    }
    const least = new Map<string, number>();
    for (const [docId, known] of this.partial) least.set(docId, this.scoreOf((list) => known.get(`${list.termId}:${list.field}`) ?? 0));
    const floor = kthLargest([...this.scores.values(), ...least.values()], k);
    const reachable: string[] = [];
    for (const [docId, known] of this.partial) {
      const most = this.scoreOf((list) => known.get(`${list.termId}:${list.field}`) ?? (list.done ? 0 : list.last));
      if (most >= floor) reachable.push(docId);
    }
    if (reachable.length === 0) return;
    for (const id of reachable) {
      this.partial.delete(id);
      this.checked.add(id);
      this.matching.add(id);
    }
    const postings = await this.postingsOf(reachable);
    for (const id of reachable) this.scores.set(id, this.score(postings.get(id) ?? []));
  }

  /** A document's score from a weight per list (0: not in it): each group's best field, or their sum. */
  private scoreOf(weight: (list: List) => number): number {
    const perGroup = new Map<number, number[]>();
    for (const list of this.lists) {
      const w = weight(list);
      if (w <= 0) continue;
      const key = list.clause * 100_000 + list.group;
      let byField = perGroup.get(key);
      if (!byField) perGroup.set(key, (byField = [0, 0, 0]));
      byField[list.field] = Math.max(byField[list.field]!, w * list.coefficient);
    }
    let total = 0;
    for (const [key, byField] of perGroup) {
      const clause = this.clauses[Math.floor(key / 100_000)]!;
      total += clause.sumFields ? byField.reduce((a, b) => a + b, 0) : Math.max(...byField);
    }
    return total;
  }

  /** The postings of the query's terms in these documents. */
  private async postingsOf(docIds: string[]): Promise<Map<string, PostingRow[]>> {
    const postings = await sql<PostingRow>`
      select p.doc_id, p.field, p.term_id, p.tf, d.lengths[p.field + 1] as length, d.index_id
      from search_posting p join search_document d on d.id = p.doc_id
      where p.doc_id = any(${docIds}::bigint[]) and p.term_id = any(${this.allTermIds()}::int[])`.execute(this.db);
    return groupByDoc(postings.rows);
  }

  /** Exact scores of given documents (a page sorted by a field, with track_scores). */
  async scoresOf(docIds: string[]): Promise<Map<string, number>> {
    for (const id of docIds) this.matching.add(id);
    const byDoc = await this.postingsOf(docIds);
    const result = new Map<string, number>();
    for (const id of docIds) result.set(id, this.score(byDoc.get(id) ?? []));
    return result;
  }
}
