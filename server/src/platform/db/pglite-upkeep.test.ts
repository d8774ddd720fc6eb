import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { dueAction, PgliteUpkeep } from './pglite-upkeep.js';

/** PGlite has no autovacuum: PgliteUpkeep does its work, by its thresholds, while the server is idle. */
describe('the upkeep of the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
    await migrate(database);
    await database.execScript(`
      create table upkeep_probe (id int primary key, label text);
      insert into upkeep_probe select g, 'Scan ' || g from generate_series(1, 5000) g;`);
  });
  afterAll(() => database.close());

  const probe = async () =>
    (
      await sql<{ analysed: boolean; vacuumed: boolean; visible: number }>`
        select s.last_analyze is not null as analysed, s.last_vacuum is not null as vacuumed, c.relallvisible as visible
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = 'upkeep_probe'`.execute(database.db)
    ).rows[0]!;

  it('vacuums and analyses a table that many rows were written to, and leaves it alone after', async () => {
    expect(await probe()).toEqual({ analysed: false, vacuumed: false, visible: 0 });
    const upkeep = new PgliteUpkeep(database.db, (err) => {
      throw err;
    });
    const steps = await upkeep.runOnce();
    expect(steps).toContainEqual(expect.objectContaining({ table: 'upkeep_probe', action: 'vacuum analyze' }));
    const after = await probe();
    expect(after).toMatchObject({ analysed: true, vacuumed: true });
    // The visibility map is set, so index-only scans need not visit the table.
    expect(after.visible).toBeGreaterThan(0);
    expect((await upkeep.runOnce()).map((s) => s.table)).not.toContain('upkeep_probe');

    // 600 rows changed of 5,000: past the analyze threshold (550), not the vacuum one (1,050).
    await database.execScript(`update upkeep_probe set label = label || ' (new)' where id <= 600`);
    expect((await upkeep.runOnce()).find((s) => s.table === 'upkeep_probe')?.action).toBe('analyze');
    await database.execScript(`update upkeep_probe set label = label || ' (newer)' where id <= 1200`);
    expect((await upkeep.runOnce()).find((s) => s.table === 'upkeep_probe')?.action).toBe('vacuum analyze');
  });

  it('stops between tables once a request comes in, when it runs while idle', async () => {
    await database.execScript(`
      create table upkeep_probe_a (id int primary key); insert into upkeep_probe_a select generate_series(1, 2000);
      create table upkeep_probe_b (id int primary key); insert into upkeep_probe_b select generate_series(1, 2000);`);
    let clock = 100_000;
    const upkeep = new PgliteUpkeep(database.db, (err) => {
      throw err;
    }, { now: () => clock });
    upkeep.noteActivity();
    // A request a moment ago: the server is not idle, so nothing is done.
    clock += 1000;
    expect(await upkeep.runOnce({ whileIdle: true })).toEqual([]);
    clock += 10_000;
    expect((await upkeep.runOnce({ whileIdle: true })).map((s) => s.table)).toEqual(expect.arrayContaining(['upkeep_probe_a', 'upkeep_probe_b']));
  });

  it('checkpoints once enough WAL was written since the last checkpoint (PGlite has no checkpointer)', async () => {
    const walSinceCheckpoint = async () =>
      Number(
        (
          await sql<{ bytes: string }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint as bytes from pg_control_checkpoint()`.execute(
            database.db,
          )
        ).rows[0]!.bytes,
      );
    const upkeep = new PgliteUpkeep(database.db, (err) => {
      throw err;
    }, { checkpointAfter: 1024 * 1024 });
    await database.execScript(`create table upkeep_wal (id int primary key, filler text); insert into upkeep_wal select g, repeat('x', 500) from generate_series(1, 4000) g;`);
    expect(await walSinceCheckpoint()).toBeGreaterThan(1024 * 1024);
    expect(await upkeep.checkpointIfDue()).toBe(true);
    // Only the checkpoint's own records are left since its redo point.
    expect(await walSinceCheckpoint()).toBeLessThan(64 * 1024);
    expect(await upkeep.checkpointIfDue()).toBe(false);
  });

  it("follows autovacuum's default thresholds", () => {
    const table = { table: 't', dead: 0, insertedSinceVacuum: 0, modifiedSinceAnalyze: 0, tuples: 10_000 };
    expect(dueAction(table)).toBeUndefined();
    expect(dueAction({ ...table, dead: 2051 })).toBe('vacuum analyze');
    expect(dueAction({ ...table, dead: 2049 })).toBeUndefined();
    expect(dueAction({ ...table, insertedSinceVacuum: 3001 })).toBe('vacuum analyze');
    expect(dueAction({ ...table, modifiedSinceAnalyze: 1051 })).toBe('analyze');
    expect(dueAction({ ...table, tuples: 0, insertedSinceVacuum: 1001 })).toBe('vacuum analyze');
  });
});
