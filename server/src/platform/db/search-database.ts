import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_TABLE, migrationScript, readMigrations } from './migrate.js';
import { PGliteThread, type ThreadSession } from './pglite-thread.js';

/**
 * The migrations that make the search engine's tables (`search_document`, its postings, blocks
 * and statistics). On PGlite those tables live in a database of their own (see
 * `openSearchThread`), which runs these and no others: a migration that changes a search table
 * goes in this list too.
 */
export const SEARCH_MIGRATIONS = [14, 15, 16, 17];

/** The search tables, those referenced first: the order their rows are copied in. */
export const SEARCH_TABLES = [
  'search_term',
  'search_term_stem',
  'search_language',
  'search_document',
  'search_posting',
  'search_term_stat',
  'search_field_stat',
  'search_term_language_stat',
  'search_set_stat',
  'search_block',
  'search_unblocked',
  'search_generation',
];

/** The search tables' identity columns, whose sequences go on after the rows copied. */
const IDENTITIES = [
  ['search_document', 'id'],
  ['search_term', 'id'],
  ['search_language', 'id'],
];

/** The main database's tables the search migrations refer to: stand-ins here, their foreign keys dropped. */
const STAND_INS = ['search_index', 'document_image'];

/**
 * The search tables of an embedded database, in a PGlite of their own in a worker thread (in
 * `pgsearch` beside the main one's `pgdata`, or in memory with it), so the indexer's statements
 * run beside the server's thread, as an Elasticsearch cluster does: a reindex held every API call
 * that queried for the whole of each of its steps when they shared PGlite's one connection. The
 * thread starts with the first search statement. There, before anything else, the search
 * migrations run and, the first time, the rows a data dir from before kept in the main database
 * move over. The thread runs at background priority: a reindex's writes keep one core busy for
 * minutes, and at the same niceness as the server's thread they took turns with it, so a list call
 * waited behind them (issue 19, bench/README "List calls while jobs run"); searches run there too
 * and take what the server's thread leaves, which on an idle server is all of it.
 */
export function openSearchThread(main: PGlite, dataDir: string | null): PGliteThread {
  return new PGliteThread({
    dataDir: dataDir === null ? null : path.join(dataDir, 'pgsearch'),
    background: true,
    prepare: async (thread) => {
      await migrateSearch(thread);
      await moveSearchRows(main, thread);
    },
  });
}

async function migrateSearch(thread: ThreadSession): Promise<void> {
  await thread.exec(`${MIGRATIONS_TABLE};\n${STAND_INS.map((t) => `CREATE TABLE IF NOT EXISTS ${t} (id uuid PRIMARY KEY);`).join('\n')}`);
  const done = await thread.query<{ version: number }>('SELECT version FROM schema_migration');
  const applied = new Set(done.rows.map((r) => r.version));
  for (const m of readMigrations().filter((m) => SEARCH_MIGRATIONS.includes(m.version) && !applied.has(m.version))) {
    await thread.exec(migrationScript(m));
  }
  // Rows of the main database are not here to refer to: the sync removes what it leaves.
  await thread.exec(`
    DO $$ DECLARE c record; BEGIN
      FOR c IN SELECT conrelid::regclass AS t, conname FROM pg_constraint
        WHERE contype = 'f' AND confrelid IN (${STAND_INS.map((t) => `'${t}'::regclass`).join(', ')})
      LOOP EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.t, c.conname); END LOOP;
    END $$;`);
}

/**
 * Moves the search rows a data dir from before kept in the main database (each table copied
 * whole, in one transaction here), then empties them there. Stopped halfway, it is done again
 * from the start: the main database is emptied only after the copy committed.
 */
async function moveSearchRows(main: PGlite, thread: ThreadSession): Promise<void> {
  const present = await main.query<{ t: string }>(`SELECT t FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NOT NULL`, [SEARCH_TABLES]);
  const tables = present.rows.map((r) => r.t);
  if (!tables.includes('search_document')) return;
  const held = await main.query<{ yes: boolean }>('SELECT exists (SELECT 1 FROM search_document) OR exists (SELECT 1 FROM search_term) AS yes');
  if (!held.rows[0]?.yes) return;
  await thread.transaction(async (tx) => {
    await tx.exec(`TRUNCATE ${SEARCH_TABLES.join(', ')}`);
    for (const table of tables) {
      const out = await main.query(`COPY ${table} TO '/dev/blob'`);
      // An empty table gives no blob, and there is nothing to copy.
      if (out.blob?.size) await tx.query(`COPY ${table} FROM '/dev/blob'`, [], { blob: out.blob });
    }
    for (const [table, column] of IDENTITIES) {
      await tx.query(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`);
    }
  });
  await main.exec(`TRUNCATE ${tables.join(', ')}`);
}
