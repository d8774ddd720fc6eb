import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

/**
 * The database: PGlite (PostgreSQL in-process, persisted in the data dir) by default, a
 * PostgreSQL server when a URL is given. Both run the same migrations and the same Kysely queries.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Kysely<DB>;
  /** Runs a script of several statements (migrations); nothing else should need it. */
  execScript(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' }
  | { kind: 'postgres'; url: string };

export class DatabaseInUseError extends Error {}

export interface OpenOptions {
  /**
   * Told when an idle PostgreSQL connection fails (server restart, admin termination). The pool
   * drops it and opens another for the next query; unheard, the error would end the process.
   */
  onConnectionError?: (err: Error) => void;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    return openPostgres(target.url, options.onConnectionError ?? ((err) => console.warn('database connection lost:', err.message)));
  }
  if (target.kind === 'pglite-memory') return openPGlite(new PGlite(), async () => {});
  const dir = path.join(target.dataDir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true });
  const releaseLock = acquireProcessLock(path.join(target.dataDir, 'pgdata.lock'));
  try {
    return await openPGlite(new PGlite(dir), releaseLock);
  } catch (err) {
    await releaseLock();
    throw err;
  }
}

async function openPGlite(client: PGlite, onClose: () => Promise<void>): Promise<Database> {
  await client.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: client }) });
  return {
    kind: 'pglite',
    db,
    execScript: async (sqlText) => {
      try {
        await client.exec(sqlText);
      } catch (err) {
        // A failed script that opened a transaction leaves it aborted: close it.
        await client.exec('ROLLBACK').catch(() => {});
        throw err;
      }
    },
    close: async () => {
      await db.destroy();
      if (!client.closed) await client.close();
      await onClose();
    },
  };
}

async function openPostgres(url: string, onConnectionError: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', onConnectionError);
  // Fail at boot with the driver's message rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    execScript: async (sqlText) => {
      const conn = await pool.connect();
      try {
        // No parameters: pg uses the simple protocol, which accepts several statements.
        await conn.query(sqlText);
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        conn.release();
      }
    },
    close: async () => {
      await db.destroy();
    },
  };
}

/**
 * PGlite is single-process: two processes on one data dir would corrupt it. A lock file with the
 * owner's pid keeps the CLI off a data dir the server holds, and says so clearly.
 */
function acquireProcessLock(lockFile: string): () => Promise<void> {
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number(fs.readFileSync(lockFile, 'utf8').trim());
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DatabaseInUseError(
        `The embedded database in ${path.dirname(lockFile)} is in use by another PIM process (pid ${owner}). ` +
          'Stop the server first, or set DATABASE_URL to use a PostgreSQL server, which allows both at once.',
      );
    }
    // A stale lock from a process that is gone.
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return async () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
