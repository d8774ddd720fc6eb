import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from './database.js';

/** Forward-only numbered SQL migrations: server/migrations/NNNN_name.sql. */
export const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url).pathname;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

/** The bookkeeping table of the migrations applied. */
export const MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migration (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** A migration and its bookkeeping row, as one transaction. */
export function migrationScript(m: Migration): string {
  return `BEGIN;\n${m.sql}\n;INSERT INTO schema_migration (version, name) VALUES (${m.version}, '${m.name}');\nCOMMIT;`;
}

/**
 * Applies the migrations not applied yet, each in its own transaction together with its
 * bookkeeping row. An advisory lock keeps two servers starting at once from racing.
 * Returns the versions applied now.
 */
export async function migrate(database: Database, migrations = readMigrations()): Promise<number[]> {
  await database.execScript(MIGRATIONS_TABLE);
  return database.db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(727001)`.execute(conn);
    try {
      const done = await sql<{ version: number }>`SELECT version FROM schema_migration`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.version));
      const now: number[] = [];
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        await database.execScript(migrationScript(m));
        now.push(m.version);
      }
      return now;
    } finally {
      await sql`SELECT pg_advisory_unlock(727001)`.execute(conn);
    }
  });
}
