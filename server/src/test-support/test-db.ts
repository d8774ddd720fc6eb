import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../platform/db/database.js';

/**
 * A fresh, empty database for one test file: in-memory PGlite, or (PIM_TEST_DB=postgres) a new
 * database on the throwaway PostgreSQL server, dropped again on close.
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  if (process.env.PIM_TEST_DB !== 'postgres') return openDatabase({ kind: 'pglite-memory' });
  const adminUrl = inject('pgAdminUrl');
  const name = `pim_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase(
    { kind: 'postgres', url: url.toString() },
    {
      // DROP DATABASE ... WITH (FORCE) at close terminates connections still ending: expected.
      onConnectionError: (err) => {
        if ((err as { code?: string }).code !== '57P01') throw err;
      },
    },
  );
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      try {
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await drop.end();
      }
    },
  };
}
