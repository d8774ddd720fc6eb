import { type Kysely, type Transaction, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { stemmerOf } from '../analysis.js';
import type { IndexedDocument, SearchDocumentStore } from '../query.js';
import { TimeSlice, nextTurn } from '../turns.js';
import { type NewPosting, addToBlocks, bumpGeneration, languageIds, removeFromBlocks } from './blocks.js';
import { type DocumentTerms, documentTerms } from './document-terms.js';
import { BM25_B, BM25_K1, bm25Weight } from './fields.js';

type Index = { id: string; name: string };

/**
 * Documents weighed again per transaction by reweigh: each update of their postings is short, so
 * the API's queries do not wait long behind it (on PGlite they wait for the whole transaction, on
 * this thread).
 */
const REWEIGH_DOCS = 50;

/** The tables whose planner statistics analyze gathers, one statement each. */
const ANALYZED = ['search_document', 'search_posting', 'search_block', 'search_term', 'search_term_stat', 'search_term_language_stat', 'search_set_stat'];

/**
 * The search documents in PostgreSQL: each write of an index runs in one transaction under the
 * index's advisory lock, so the document frequencies and lengths BM25 reads stay exact.
 */
export class PgDocumentStore implements SearchDocumentStore {
  constructor(private readonly db: Kysely<DB>) {}

  async upsert(index: Index, docs: IndexedDocument[]): Promise<void> {
    if (docs.length === 0) return;
    // A page takes milliseconds to analyse: in slices, so requests get their turns.
    const slice = new TimeSlice();
    const analysed: { doc: IndexedDocument; terms: DocumentTerms }[] = [];
    for (const doc of docs) {
      await slice.check();
      analysed.push({ doc, terms: documentTerms(doc.source) });
    }
    await this.db.transaction().execute(async (trx) => {
      await lockIndex(trx, index.id);
      // The GIN indexes move their pending entries into the index when the list is full: with
      // PostgreSQL's 4 MB one insert now and then ran for a second on PGlite, with 64 kB each does a little.
      await sql`set local gin_pending_list_limit = 64`.execute(trx);
      // A page written again keeps its document's id, so a search that listed it before this write
      // commits still finds it when it reads its hits after.
      const previous = await removeDocuments(trx, index.id, docs.map((d) => d.id));
      const termIds = await vocabulary(trx, analysed);
      await addStems(trx, analysed, termIds);
      const averages = await averageLengths(trx, index.id, analysed.map((a) => a.terms));
      const docIds = await insertDocuments(trx, index.id, analysed, previous);
      await insertPostings(trx, index.id, analysed, docIds, termIds, averages);
      await bumpGeneration(trx, index.id);
    });
  }

  /**
   * The images among these whose documents the index holds as they are: the same source (what
   * every stored column is made from), written since the bigrams and with their blocks.
   */
  async unchanged(index: Index, docs: IndexedDocument[]): Promise<Set<string>> {
    if (docs.length === 0) return new Set();
    const rows = await sql<{ image_id: string }>`
      select d.image_id from unnest(${docs.map((d) => d.id)}::uuid[], ${docs.map((d) => JSON.stringify(d.source))}::text[]) as n(image_id, source)
      join search_document d on d.image_id = n.image_id and d.index_id = ${index.id} and d.source = n.source::jsonb
      where d.bigrams and not exists (select 1 from search_unblocked u where u.doc_id = d.id)`.execute(this.db);
    return new Set(rows.rows.map((r) => r.image_id));
  }

  async remove(index: Index, imageIds: string[]): Promise<void> {
    if (imageIds.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await lockIndex(trx, index.id);
      await removeDocuments(trx, index.id, imageIds);
      await bumpGeneration(trx, index.id);
    });
  }

  async clear(index: Index): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockIndex(trx, index.id);
      await sql`delete from search_document where index_id = ${index.id}`.execute(trx);
      await sql`delete from search_term_stat where index_id = ${index.id}`.execute(trx);
      await sql`delete from search_field_stat where index_id = ${index.id}`.execute(trx);
      await sql`delete from search_term_language_stat where index_id = ${index.id}`.execute(trx);
      await sql`delete from search_set_stat where index_id = ${index.id}`.execute(trx);
      await sql`delete from search_block where index_id = ${index.id}`.execute(trx);
      await bumpGeneration(trx, index.id);
    });
  }

  /**
   * Weighs every posting of the index again with today's average lengths: documents added one by
   * one were weighed with the averages of their time (the blocks weigh at search time and need
   * none of it). A full reindex ends with this; it also writes the blocks of documents written
   * before there were blocks (fillBlocks).
   */
  async reweigh(index: Index): Promise<void> {
    await this.fillBlocks(index);
    // In steps of documents, each a transaction, rather than one statement over the whole index
    // (6 s for 1,000 pages on PGlite, every request held as long).
    let after = '0';
    for (;;) {
      const last = await this.db.transaction().execute(async (trx) => {
        await lockIndex(trx, index.id);
        const step = await sql<{ first: string | null; last: string | null }>`
          select min(id) as first, max(id) as last
          from (select id from search_document where index_id = ${index.id} and id > ${after}::bigint order by id limit ${REWEIGH_DOCS}) d`.execute(trx);
        const { first, last } = step.rows[0]!;
        if (first === null || last === null) return null;
        await sql`
          update search_posting p
          set weight = p.tf * ${BM25_K1 + 1}::float8 / (p.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * d.lengths[p.field + 1]::float8 / greatest(fs.total_length::float8 / greatest(fs.doc_count, 1), 1e-9)))
          from search_document d, search_field_stat fs
          where p.doc_id between ${first}::bigint and ${last}::bigint and d.id = p.doc_id and d.index_id = ${index.id}
            and fs.index_id = d.index_id and fs.field = p.field`.execute(trx);
        return last;
      });
      if (last === null) break;
      after = last;
      await nextTurn();
    }
    await this.analyze();
  }

  /**
   * Writes the blocks of documents written before migration 0017 (a batch of documents a
   * transaction), so searches of the index read its blocks; a reindex does the same.
   */
  async fillBlocks(index: Index, batch = 2_000): Promise<number> {
    let filled = 0;
    for (;;) {
      const done = await this.db.transaction().execute(async (trx) => {
        await lockIndex(trx, index.id);
        const docs = await sql<{ id: string; lengths: number[]; language: string | null }>`
          select d.id, d.lengths, d.language from search_unblocked u join search_document d on d.id = u.doc_id
          where u.index_id = ${index.id} order by u.doc_id limit ${batch}`.execute(trx);
        if (docs.rows.length === 0) return 0;
        const languages = await languageIds(trx, docs.rows.map((d) => d.language));
        const byDoc = new Map(docs.rows.map((d) => [d.id, d]));
        const postings = await sql<{ doc_id: string; field: number; term_id: number; tf: number }>`
          select doc_id, field, term_id, tf from search_posting where doc_id = any(${docs.rows.map((d) => d.id)}::bigint[])`.execute(trx);
        await addToBlocks(
          trx,
          index.id,
          postings.rows.map((p) => {
            const doc = byDoc.get(p.doc_id)!;
            return { termId: p.term_id, field: p.field, doc: Number(p.doc_id), tf: p.tf, length: doc.lengths[p.field] ?? 0, language: languages.get(doc.language ?? '') ?? 0 };
          }),
        );
        await sql`delete from search_unblocked where doc_id = any(${docs.rows.map((d) => d.id)}::bigint[])`.execute(trx);
        await bumpGeneration(trx, index.id);
        return docs.rows.length;
      });
      if (done === 0) return filled;
      filled += done;
    }
  }

  /**
   * Fresh planner statistics of the search tables: without them the planner scans the whole
   * vocabulary for fuzzy terms instead of its trigram index, and PGlite has no autovacuum to
   * gather them ever. The indexer asks for them after larger writes and when there are none yet.
   */
  async analyze(): Promise<void> {
    for (const table of ANALYZED) {
      await sql`analyze ${sql.table(table)}`.execute(this.db);
      await nextTurn();
    }
  }

  /** Whether the search tables were never analysed (PostgreSQL 14+ keeps -1 tuples until then). */
  async lacksStatistics(): Promise<boolean> {
    const row = await sql<{ never: boolean }>`select coalesce(bool_or(reltuples < 0), true) as never from pg_class where relname in ('search_posting', 'search_term')`.execute(this.db);
    return row.rows[0]?.never ?? true;
  }

}

async function lockIndex(trx: Transaction<DB>, indexId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`search:${indexId}`}))`.execute(trx);
}

/**
 * Removes the documents of these images from the index and takes them out of its statistics;
 * image id -> the id its document had.
 */
async function removeDocuments(trx: Transaction<DB>, indexId: string, imageIds: string[]): Promise<Map<string, string>> {
  const old = await sql<{ id: string; image_id: string; lengths: number[]; set_ids: string[]; blocked: boolean }>`
    select d.id, d.image_id, d.lengths, d.set_ids, u.doc_id is null as blocked
    from search_document d left join search_unblocked u on u.doc_id = d.id
    where d.index_id = ${indexId} and d.image_id = any(${imageIds}::uuid[])`.execute(trx);
  if (old.rows.length === 0) return new Map();
  const ids = old.rows.map((r) => r.id);
  const blocked = old.rows.filter((r) => r.blocked).map((r) => r.id);
  if (blocked.length) {
    const lists = await sql<{ term_id: number; field: number; doc_id: string }>`
      select term_id, field, doc_id from search_posting where doc_id = any(${blocked}::bigint[])`.execute(trx);
    await removeFromBlocks(trx, indexId, lists.rows.map((r) => ({ termId: r.term_id, field: r.field, doc: Number(r.doc_id) })));
  }
  // The counts that reach 0 go: those of the terms counted down here. Looking through all of the
  // index's counts for df = 0 cost more than the rest of a small write, and grows with the index.
  const terms = await sql<{ term_id: number; field: number; df: number }>`
    update search_term_stat s set df = s.df - c.n
    from (select term_id, field, count(*)::int as n from search_posting where doc_id = any(${ids}::bigint[]) group by term_id, field) c
    where s.index_id = ${indexId} and s.term_id = c.term_id and s.field = c.field
    returning s.term_id, s.field, s.df`.execute(trx);
  const noTerms = terms.rows.filter((r) => r.df === 0);
  if (noTerms.length) {
    await sql`
      delete from search_term_stat s using unnest(${noTerms.map((r) => r.term_id)}::int[], ${noTerms.map((r) => r.field)}::smallint[]) as x(t, f)
      where s.index_id = ${indexId} and s.term_id = x.t and s.field = x.f and s.df = 0`.execute(trx);
  }
  const languages = await sql<{ term_id: number; language: string; df: number }>`
    update search_term_language_stat s set df = s.df - c.n
    from (select p.term_id, coalesce(d.language, '') as language, count(distinct p.doc_id)::int as n
          from search_posting p join search_document d on d.id = p.doc_id where p.doc_id = any(${ids}::bigint[]) group by 1, 2) c
    where s.index_id = ${indexId} and s.term_id = c.term_id and s.language = c.language
    returning s.term_id, s.language, s.df`.execute(trx);
  const noLanguages = languages.rows.filter((r) => r.df === 0);
  if (noLanguages.length) {
    await sql`
      delete from search_term_language_stat s using unnest(${noLanguages.map((r) => r.term_id)}::int[], ${noLanguages.map((r) => r.language)}::text[]) as x(t, l)
      where s.index_id = ${indexId} and s.term_id = x.t and s.language = x.l and s.df = 0`.execute(trx);
  }
  await countSets(trx, indexId, old.rows.map((r) => r.set_ids), -1);
  for (const field of [0, 1, 2]) {
    const total = old.rows.reduce((sum, r) => sum + (r.lengths[field] ?? 0), 0);
    await sql`
      update search_field_stat set doc_count = doc_count - ${old.rows.length}, total_length = total_length - ${total}
      where index_id = ${indexId} and field = ${field}`.execute(trx);
  }
  await sql`delete from search_document where id = any(${ids}::bigint[])`.execute(trx);
  return new Map(old.rows.map((r) => [r.image_id, r.id]));
}

/** Adds the new terms to the vocabulary; term -> id. */
async function vocabulary(trx: Transaction<DB>, analysed: { terms: DocumentTerms }[]): Promise<Map<string, number>> {
  const written = new Map<string, string>();
  for (const a of analysed) for (const [term, word] of a.terms.written) if (!written.has(term)) written.set(term, word);
  const all = [...written.keys()].sort();
  const ids = new Map<string, number>();
  for (let i = 0; i < all.length; i += 5000) {
    const chunk = all.slice(i, i + 5000);
    // Sorted, so concurrent writers take the unique index's locks in one order.
    await sql`
      insert into search_term (term, display) select t, w from unnest(${chunk}::text[], ${chunk.map((t) => written.get(t)!)}::text[]) as x(t, w)
      order by t on conflict (term) do nothing`.execute(trx);
    // A join, not `term = any(...)`: given thousands of values the planner may test each against
    // every row of a large vocabulary (seconds) instead of looking each up.
    const rows = await sql<{ id: number; term: string }>`
      select t.id, t.term from unnest(${chunk}::text[]) as x(term) join search_term t on t.term = x.term`.execute(trx);
    for (const row of rows.rows) ids.set(row.term, row.id);
  }
  return ids;
}

/** Records the stems of the terms of documents in a language with a stemmer. */
async function addStems(trx: Transaction<DB>, analysed: { doc: IndexedDocument; terms: DocumentTerms }[], termIds: Map<string, number>) {
  const byConfig = new Map<string, Set<number>>();
  for (const { doc, terms } of analysed) {
    const config = stemmerOf(doc.source.language);
    if (!config) continue;
    let set = byConfig.get(config);
    if (!set) byConfig.set(config, (set = new Set()));
    for (const term of terms.frequencies.keys()) set.add(termIds.get(term)!);
  }
  for (const [config, ids] of byConfig) {
    await sql`
      insert into search_term_stem (config, stem, term_id)
      select ${config}, coalesce((ts_lexize(${`${config}_stem`}::regdictionary, t.term))[1], t.term), t.id
      from unnest(${[...ids]}::int[]) as x(id) join search_term t on t.id = x.id
      order by 1, 2, 3
      on conflict do nothing`.execute(trx);
  }
}

/** The average field lengths with these documents counted, per field. */
async function averageLengths(trx: Transaction<DB>, indexId: string, docs: DocumentTerms[]): Promise<number[]> {
  const stats = await sql<{ field: number; doc_count: string; total_length: string }>`
    select field, doc_count, total_length from search_field_stat where index_id = ${indexId}`.execute(trx);
  return [0, 1, 2].map((field) => {
    const row = stats.rows.find((r) => r.field === field);
    const count = Number(row?.doc_count ?? 0) + docs.length;
    const total = Number(row?.total_length ?? 0) + docs.reduce((sum, d) => sum + d.lengths[field]!, 0);
    return count > 0 ? total / count : 0;
  });
}

/** Writes the documents, each under its image's previous id where it had one; their ids. */
async function insertDocuments(
  trx: Transaction<DB>,
  indexId: string,
  analysed: { doc: IndexedDocument; terms: DocumentTerms }[],
  previous: Map<string, string>,
): Promise<string[]> {
  const ids: string[] = [];
  for (const { doc, terms } of analysed) {
    const s = doc.source;
    // Taken once: an image given twice in one write gets a new id the second time, not a clash.
    const id = previous.get(doc.id);
    previous.delete(doc.id);
    const row = await sql<{ id: string }>`
      insert into search_document (id, index_id, image_id, set_ids, source, terms, lengths, language, pagenumber, height, width,
        ocr_confidence, deskew, column_count, line_count, word_count, date, label, bigrams)
      overriding system value
      values (${id === undefined ? sql`default` : sql`${id}::bigint`}, ${indexId}, ${doc.id}, ${s.imageSetUuid}::uuid[], ${JSON.stringify(s)}::jsonb,
        ${terms.tsvector}::tsvector, ${terms.lengths}::int[], ${s.language}, ${s.pagenumber}, ${s.height}, ${s.width}, ${s.ocrConfidence}, ${s.deskew},
        ${s.columnCount}, ${s.lineCount}, ${s.wordCount}, ${s.date}::timestamptz, ${s.label}, true)
      returning id`.execute(trx);
    ids.push(row.rows[0]!.id);
  }
  await countSets(trx, indexId, analysed.map((a) => a.doc.source.imageSetUuid), 1);
  const fieldCounts = [0, 1, 2].map((field) => ({
    field,
    docs: analysed.length,
    total: analysed.reduce((sum, a) => sum + a.terms.lengths[field]!, 0),
  }));
  for (const f of fieldCounts) {
    await sql`
      insert into search_field_stat (index_id, field, doc_count, total_length) values (${indexId}, ${f.field}, ${f.docs}, ${f.total})
      on conflict (index_id, field) do update set doc_count = search_field_stat.doc_count + excluded.doc_count,
        total_length = search_field_stat.total_length + excluded.total_length`.execute(trx);
  }
  return ids;
}

/** Adds (sign 1) or takes away (-1) documents naming these sets from the index's set counts. */
async function countSets(trx: Transaction<DB>, indexId: string, setIdsOfDocs: string[][], sign: 1 | -1): Promise<void> {
  const counts = new Map<string, number>();
  for (const setIds of setIdsOfDocs) for (const id of new Set(setIds)) counts.set(id, (counts.get(id) ?? 0) + 1);
  if (counts.size === 0) return;
  const ids = [...counts.keys()].sort();
  const n = ids.map((id) => counts.get(id)!);
  if (sign > 0) {
    await sql`
      insert into search_set_stat (index_id, set_id, docs)
      select ${indexId}, s, n from unnest(${ids}::uuid[], ${n}::int[]) as x(s, n)
      on conflict (index_id, set_id) do update set docs = search_set_stat.docs + excluded.docs`.execute(trx);
    return;
  }
  await sql`
    update search_set_stat t set docs = t.docs - x.n
    from unnest(${ids}::uuid[], ${n}::int[]) as x(s, n) where t.index_id = ${indexId} and t.set_id = x.s`.execute(trx);
  await sql`delete from search_set_stat where index_id = ${indexId} and docs = 0`.execute(trx);
}

async function insertPostings(
  trx: Transaction<DB>,
  indexId: string,
  analysed: { doc: IndexedDocument; terms: DocumentTerms }[],
  docIds: string[],
  termIds: Map<string, number>,
  averages: number[],
): Promise<void> {
  const docCol: string[] = [];
  const fieldCol: number[] = [];
  const termCol: number[] = [];
  const tfCol: number[] = [];
  const weightCol: number[] = [];
  const df = new Map<string, number>();
  const byLanguage = new Map<string, number>();
  const blocks: NewPosting[] = [];
  const languages = await languageIds(trx, analysed.map((a) => a.doc.source.language));
  const slice = new TimeSlice();
  for (const [i, { doc, terms }] of analysed.entries()) {
    await slice.check();
    const language = doc.source.language ?? '';
    const languageId = languages.get(language) ?? 0;
    for (const [term, byField] of terms.frequencies) {
      const termId = termIds.get(term)!;
      const key = `${termId}:${language}`;
      byLanguage.set(key, (byLanguage.get(key) ?? 0) + 1);
      for (const [field, tf] of byField) {
        docCol.push(docIds[i]!);
        fieldCol.push(field);
        termCol.push(termId);
        tfCol.push(tf);
        weightCol.push(bm25Weight(tf, terms.lengths[field]!, averages[field]!));
        blocks.push({ termId, field, doc: Number(docIds[i]!), tf, length: terms.lengths[field]!, language: languageId });
        const key = `${termId}:${field}`;
        df.set(key, (df.get(key) ?? 0) + 1);
      }
    }
  }
  for (let i = 0; i < docCol.length; i += 5_000) {
    const end = i + 5_000;
    await sql`
      insert into search_posting (doc_id, field, term_id, tf, weight)
      select * from unnest(${docCol.slice(i, end)}::bigint[], ${fieldCol.slice(i, end)}::smallint[], ${termCol.slice(i, end)}::int[],
        ${tfCol.slice(i, end)}::int[], ${weightCol.slice(i, end)}::real[])`.execute(trx);
  }
  await addToBlocks(trx, indexId, blocks);
  const keys = [...df.keys()].sort();
  await sql`
    insert into search_term_stat (index_id, term_id, field, df)
    select ${indexId}, split_part(k, ':', 1)::int, split_part(k, ':', 2)::smallint, n
    from unnest(${keys}::text[], ${keys.map((k) => df.get(k)!)}::int[]) as x(k, n)
    on conflict (index_id, term_id, field) do update set df = search_term_stat.df + excluded.df`.execute(trx);
  const languageKeys = [...byLanguage.keys()].sort();
  const at = languageKeys.map((k) => k.indexOf(':'));
  await sql`
    insert into search_term_language_stat (index_id, term_id, language, df)
    select ${indexId}, t, l, n
    from unnest(${languageKeys.map((k, i) => Number(k.slice(0, at[i])))}::int[], ${languageKeys.map((k, i) => k.slice(at[i]! + 1))}::text[],
      ${languageKeys.map((k) => byLanguage.get(k)!)}::int[]) as x(t, l, n)
    order by t, l
    on conflict (index_id, term_id, language) do update set df = search_term_language_stat.df + excluded.df`.execute(trx);
}
