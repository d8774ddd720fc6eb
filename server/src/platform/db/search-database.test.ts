import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { threadNice } from '../../test-support/priority-procedures.js';
import { BACKGROUND_NICE } from '../processes/priority.js';
import { SEARCH_TABLES } from './search-database.js';

const INDEX = '00000000-0000-4000-8000-0000000000a1';

/** A search document row of its own (the indexer writes them through the store; here just the row). */
async function insertDocument(db: Database['db'], label: string): Promise<void> {
  await sql`insert into search_document (index_id, image_id, set_ids, source, terms, lengths, height, width, word_count, date, label)
    values (${INDEX}, gen_random_uuid(), '{}', '{}', to_tsvector('simple', ${label}), '{1}', 10, 10, 1, now(), ${label})`.execute(db);
}

describe.runIf(process.env.PIM_TEST_DB !== 'postgres')("PGlite's search database, in a thread of its own", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the first search statement, migrated, and answers as the main database does', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    try {
      await migrate(database);
      expect(database.searchThread!.started).toBe(false);
      await insertDocument(database.search, 'first');
      expect(database.searchThread!.started).toBe(true);
      // Its tables are its own: the main database's stay empty.
      expect((await sql<{ n: number }>`select count(*)::int as n from search_document`.execute(database.search)).rows).toEqual([{ n: 1 }]);
      expect((await sql<{ n: number }>`select count(*)::int as n from search_document`.execute(database.db)).rows).toEqual([{ n: 0 }]);
      // No foreign key to the main database's tables it does not have.
      const keys = await sql<{ n: number }>`select count(*)::int as n from pg_constraint where contype = 'f' and confrelid in ('search_index'::regclass, 'document_image'::regclass)`.execute(database.search);
      expect(keys.rows).toEqual([{ n: 0 }]);
      // A database error keeps its code, as PostgreSQL's driver gives it.
      await expect(sql`insert into search_term (term, display) values ('a', 'a'), ('a', 'a')`.execute(database.search)).rejects.toMatchObject({ code: '23505' });
      // A transaction that throws is rolled back; one that returns is committed.
      await expect(
        database.search.transaction().execute(async (trx) => {
          await insertDocument(trx, 'rolled back');
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      await database.search.transaction().execute((trx) => insertDocument(trx, 'committed'));
      const labels = await sql<{ label: string }>`select label from search_document order by id`.execute(database.search);
      expect(labels.rows.map((r) => r.label)).toEqual(['first', 'committed']);
    } finally {
      await database.close();
    }
  });

  it.runIf(fs.existsSync('/proc/thread-self'))("runs at background priority, the server's thread staying as it was", async () => {
    const before = threadNice();
    const database = await openDatabase({ kind: 'pglite-memory' });
    try {
      await migrate(database);
      await insertDocument(database.search, 'first');
      const priority = { url: new URL('../../test-support/priority-procedures.ts', import.meta.url) };
      expect(await database.searchThread!.call(priority, 'nice')).toBe(BACKGROUND_NICE);
      expect(threadNice()).toBe(before);
    } finally {
      await database.close();
    }
  });

  it('starts its thread again after it ended, failing only what was asked of it meanwhile', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    try {
      await migrate(database);
      await insertDocument(database.search, 'before');
      const ending = { url: new URL('../../test-support/ending-procedures.ts', import.meta.url) };
      await expect(database.searchThread!.call(ending, 'end')).rejects.toThrow('ended (exit code 3)');
      // In memory, what it held went with it; the next statement finds it started and migrated again.
      expect((await sql<{ n: number }>`select count(*)::int as n from search_document`.execute(database.search)).rows).toEqual([{ n: 0 }]);
      await insertDocument(database.search, 'after');
    } finally {
      await database.close();
    }
  });

  it("keeps its rows in the data dir, and moves those a data dir from before kept in the main database", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-search-db-'));
    dirs.push(dataDir);
    // A data dir from before: the search rows in the main database (written there directly, as before).
    let database = await openDatabase({ kind: 'pglite', dataDir });
    await migrate(database);
    // Without the foreign keys' checks, which would ask for an index and an image.
    await database.db.connection().execute(async (conn) => {
      await sql`set session_replication_role = replica`.execute(conn);
      await insertDocument(conn, 'kept before');
      await sql`set session_replication_role = default`.execute(conn);
    });
    await sql`insert into search_term (term, display) values ('kept', 'Kept')`.execute(database.db);
    await database.close();
    expect(fs.existsSync(path.join(dataDir, 'pgsearch'))).toBe(false);

    database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await migrate(database);
      const moved = await sql<{ id: string; label: string }>`select id, label from search_document`.execute(database.search);
      expect(moved.rows.map((r) => r.label)).toEqual(['kept before']);
      // The identities go on after the rows moved.
      await insertDocument(database.search, 'after');
      const ids = await sql<{ id: string }>`select id from search_document order by id`.execute(database.search);
      expect(Number(ids.rows[1]!.id)).toBeGreaterThan(Number(moved.rows[0]!.id));
      expect((await sql<{ display: string }>`select display from search_term`.execute(database.search)).rows).toEqual([{ display: 'Kept' }]);
      for (const table of SEARCH_TABLES) {
        expect((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(database.db)).rows, table).toEqual([{ n: 0 }]);
      }
    } finally {
      await database.close();
    }

    database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const kept = await sql<{ label: string }>`select label from search_document order by id`.execute(database.search);
      expect(kept.rows.map((r) => r.label)).toEqual(['kept before', 'after']);
    } finally {
      await database.close();
    }
  });
});
