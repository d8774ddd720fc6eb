import type { Kysely } from 'kysely';
import type { Procedures } from '../../../platform/db/pglite-thread-entry.js';
import type { PGliteThread } from '../../../platform/db/pglite-thread.js';
import type { DB } from '../../../platform/db/schema.js';
import { ownEntry } from '../../../platform/threads/own-entry.js';
import type { IndexedDocument, SearchDocumentStore } from '../query.js';
import { PgDocumentStore } from './pg-store.js';

type Index = { id: string; name: string };

/** This module, as the search database's thread loads it. */
const MODULE = ownEntry('store-thread', import.meta.url);

/** The store's writes, as the search database's thread runs them (see `ThreadedDocumentStore`). */
export function procedures(db: Kysely<DB>): Procedures {
  const store = new PgDocumentStore(db);
  return {
    upsert: (index: Index, docs: IndexedDocument[]) => store.upsert(index, docs),
    unchanged: (index: Index, docs: IndexedDocument[]) => store.unchanged(index, docs),
    remove: (index: Index, imageIds: string[]) => store.remove(index, imageIds),
    clear: (index: Index) => store.clear(index),
    reweigh: (index: Index) => store.reweigh(index),
    fillBlocks: (index: Index, batch?: number) => store.fillBlocks(index, batch),
    analyze: () => store.analyze(),
    lacksStatistics: () => store.lacksStatistics(),
  };
}

/**
 * The PostgreSQL engine's store on PGlite's search database (see search-database.ts): each call
 * runs `PgDocumentStore` on the database's thread, so a page's analysis, the encoding of its
 * posting blocks and the SQL that writes them take none of the server's thread, which only builds
 * the documents from what the main database holds and sends them over.
 */
export class ThreadedDocumentStore implements SearchDocumentStore {
  constructor(private readonly thread: PGliteThread) {}

  upsert(index: Index, docs: IndexedDocument[]): Promise<void> {
    return this.thread.call(MODULE, 'upsert', index, docs);
  }

  unchanged(index: Index, docs: IndexedDocument[]): Promise<Set<string>> {
    return this.thread.call(MODULE, 'unchanged', index, docs);
  }

  remove(index: Index, imageIds: string[]): Promise<void> {
    return this.thread.call(MODULE, 'remove', index, imageIds);
  }

  clear(index: Index): Promise<void> {
    return this.thread.call(MODULE, 'clear', index);
  }

  reweigh(index: Index): Promise<void> {
    return this.thread.call(MODULE, 'reweigh', index);
  }

  fillBlocks(index: Index, batch?: number): Promise<number> {
    return this.thread.call(MODULE, 'fillBlocks', index, batch);
  }

  analyze(): Promise<void> {
    return this.thread.call(MODULE, 'analyze');
  }

  lacksStatistics(): Promise<boolean> {
    return this.thread.call(MODULE, 'lacksStatistics');
  }
}
