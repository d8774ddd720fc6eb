import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { buildDocuments, memberships } from './document-builder.js';
import { syncInOwnProcess } from './indexer-process.js';
import type { IndexedDocument, SearchDocumentStore } from './query.js';
import { nextTurn } from './turns.js';

/** What the PostgreSQL engine does besides storing (a cluster weighs and analyses itself, and is sent every document). */
interface Maintainable {
  /** The images among these whose documents the index holds as they are. */
  unchanged(index: { id: string; name: string }, docs: IndexedDocument[]): Promise<Set<string>>;
  reweigh(index: { id: string; name: string }): Promise<void>;
  analyze(): Promise<void>;
  lacksStatistics(): Promise<boolean>;
}

/** Documents written by one sync after which the planner's statistics are gathered again. */
const ANALYZE_AFTER = 500;

/** Images read and written per step by default: one transaction of the store each. */
const BATCH = 100;

/**
 * Syncs of at least this many images run in a process of their own when the engine is a
 * PostgreSQL server (indexer-process.ts); smaller ones (an edited page, an upload's few) here.
 */
export const OWN_PROCESS_FROM = 500;

export interface SearchIndexerOptions {
  /** Images read and written per step. */
  batch?: number;
  /** The PostgreSQL server the store writes to, when a large sync may run in a process of its own; `from`: OWN_PROCESS_FROM. */
  ownProcess?: { url: string; from?: number };
  /** The database of the search tables, when it is not `db` (PGlite's search database). */
  search?: Kysely<DB>;
}

export type IndexProgress = (done: number, total: number) => Promise<void>;

export interface SyncOptions {
  /**
   * Writes every document again, also those the index holds as they are: for a reindex, which
   * must also carry a new version's analysis into the index. Otherwise (a set's automatic sync
   * after an upload or a correction) only documents that changed are written.
   */
  rewrite?: boolean;
}

/**
 * Keeps the search documents what the images and sets say: each image is in the index of every
 * live set that holds it, with the text of its newest transcriptions, and in no other index.
 */
export class SearchIndexer {
  private readonly batch: number;
  private readonly search: Kysely<DB>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: SearchDocumentStore,
    private readonly options: SearchIndexerOptions = {},
  ) {
    this.batch = options.batch ?? BATCH;
    this.search = options.search ?? db;
  }

  /** Brings the documents of these images up to date in every index; `indexed`: the documents written. */
  async syncImages(imageIds: string[], progress?: IndexProgress, signal?: AbortSignal, sync: SyncOptions = {}): Promise<{ indexed: number }> {
    const unique = [...new Set(imageIds)];
    const own = this.options.ownProcess;
    if (own && unique.length >= (own.from ?? OWN_PROCESS_FROM)) return syncInOwnProcess(own.url, unique, this.batch, progress, signal, sync);
    const store = this.store as Partial<Maintainable>;
    const indices = await sql<{ id: string; name: string }>`select id, name from search_index order by id`.execute(this.db);
    let indexed = 0;
    for (let i = 0; i < unique.length; i += this.batch) {
      await nextTurn();
      signal?.throwIfAborted();
      const batch = unique.slice(i, i + this.batch);
      const wanted = await memberships(this.db, batch);
      const docs = await buildDocuments(this.db, wanted);
      for (const index of indices.rows) {
        const mine = docs.filter((d) => d.source.index === index.name);
        const keep = new Set(mine.map((d) => d.id));
        const gone = batch.filter((id) => !keep.has(id));
        const same = !sync.rewrite && store.unchanged ? await store.unchanged(index, mine) : new Set<string>();
        const changed = mine.filter((d) => !same.has(d.id));
        if (changed.length) await this.store.upsert(index, changed);
        if (gone.length) await this.store.remove(index, gone);
        indexed += changed.length;
      }
      await progress?.(Math.min(i + this.batch, unique.length), unique.length);
    }
    if (store.analyze && store.lacksStatistics && (indexed >= ANALYZE_AFTER || (indexed > 0 && (await store.lacksStatistics())))) await store.analyze();
    return { indexed };
  }

  /** Weighs the index's postings again with its present lengths (after a full reindex). */
  async reweigh(indexId: string): Promise<void> {
    const store = this.store as Partial<Maintainable>;
    if (!store.reweigh) return;
    const index = await sql<{ id: string; name: string }>`select id, name from search_index where id = ${indexId}`.execute(this.db);
    if (index.rows[0]) await store.reweigh(index.rows[0]);
  }

  /** Empties the index; how many documents it held (as far as this server recorded them). */
  async clear(index: { id: string; name: string }): Promise<number> {
    const count = await sql<{ n: number }>`select count(*)::int as n from search_document where index_id = ${index.id}`.execute(this.search);
    await this.store.clear(index);
    return count.rows[0]!.n;
  }

  /** The images that have a document in the index here (stale ones included, so a reindex removes them). */
  async indexedImages(indexId: string): Promise<string[]> {
    const rows = await sql<{ image_id: string }>`select image_id from search_document where index_id = ${indexId}`.execute(this.search);
    return rows.rows.map((r) => r.image_id);
  }

  /** The images of a set (live or not: a deleted set's images leave its index). */
  async imagesOfSet(setId: string): Promise<string[]> {
    const rows = await sql<{ image_id: string }>`select image_id from image_set_image where set_id = ${setId} order by position`.execute(this.db);
    return rows.rows.map((r) => r.image_id);
  }

  /** The images of the live sets of an index. */
  async imagesOfIndex(indexId: string): Promise<string[]> {
    const rows = await sql<{ image_id: string }>`
      select distinct m.image_id from image_set_image m join document_image_set s on s.id = m.set_id
      where s.search_index_id = ${indexId} and s.deleted_at is null`.execute(this.db);
    return rows.rows.map((r) => r.image_id);
  }
}
