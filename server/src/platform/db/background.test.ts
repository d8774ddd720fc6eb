import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/test-db.js';
import { BACKGROUND_NICE, lowerBackendPriority } from '../processes/priority.js';
import type { Database } from './database.js';

const backendPid = async (db: Database['db']) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;

describe("the database's connections for background work", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it.runIf(process.env.PIM_TEST_DB === 'postgres')('are backends of their own at background priority, the API keeping its own', async () => {
    const background = await backendPid(database.background);
    const api = await backendPid(database.db);
    expect(background).not.toBe(api);
    expect(os.getPriority(background)).toBe(BACKGROUND_NICE);
    expect(os.getPriority(api)).toBe(0);
    // A transaction there sees what the API committed.
    await sql`create table background_probe (n int)`.execute(database.db);
    await sql`insert into background_probe values (7)`.execute(database.db);
    const seen = await database.background.transaction().execute((trx) => sql<{ n: number }>`select n from background_probe`.execute(trx));
    expect(seen.rows).toEqual([{ n: 7 }]);
  });

  it.runIf(process.env.PIM_TEST_DB !== 'postgres')('are the one connection on PGlite, giving the event loop a turn after each statement', async () => {
    // A temporary table is its session's alone.
    await sql`create temporary table background_session (n int)`.execute(database.db);
    await sql`insert into background_session values (3)`.execute(database.background);
    expect((await sql<{ n: number }>`select n from background_session`.execute(database.db)).rows).toEqual([{ n: 3 }]);
    /** Whether a callback queued for the next turn ran while five statements did. */
    const turnDuring = async (db: Database['db']) => {
      let ran = false;
      const turn = new Promise<void>((resolve) =>
        setImmediate(() => {
          ran = true;
          resolve();
        }),
      );
      for (let i = 0; i < 5; i += 1) await sql`select ${i}::int`.execute(db);
      const during = ran;
      await turn;
      return during;
    };
    // PGlite's statements resolve without a turn: the API's own chains run as they always did.
    expect(await turnDuring(database.db)).toBe(false);
    expect(await turnDuring(database.background)).toBe(true);
    expect(await database.background.transaction().execute((trx) => turnDuring(trx))).toBe(true);
  });
});

describe("lowering a PostgreSQL backend's priority", () => {
  it('leaves a process alone whose title is not that backend', () => {
    const before = os.getPriority(process.pid);
    expect(lowerBackendPriority({ pid: process.pid, user: 'pim', database: 'pim', clientPort: 5432 })).toBe(false);
    expect(lowerBackendPriority({ pid: null, user: 'pim', database: 'pim', clientPort: 5432 })).toBe(false);
    expect(lowerBackendPriority({ pid: 2 ** 22 + 17, user: 'pim', database: 'pim', clientPort: 5432 })).toBe(false);
    expect(os.getPriority(process.pid)).toBe(before);
  });

  it.runIf(process.env.PIM_TEST_DB === 'postgres')("leaves another connection's backend alone", async () => {
    const database = await openTestDatabase();
    try {
      const api = await backendPid(database.db);
      const url = new URL((database as { url?: string }).url!);
      expect(lowerBackendPriority({ pid: api, user: decodeURIComponent(url.username), database: url.pathname.slice(1), clientPort: 1 })).toBe(false);
      expect(os.getPriority(api)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
