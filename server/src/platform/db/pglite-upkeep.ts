import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.js';

/** How often the upkeep looks at the tables' counters. */
const CHECK_MS = 30_000;
/** How long the server must have had no request before the upkeep takes the database. */
const IDLE_MS = 5_000;
/** How often the upkeep looks at the WAL written since the last checkpoint. */
const WAL_CHECK_MS = 5_000;
/**
 * The WAL since the last checkpoint past which the upkeep checkpoints. What came before is then
 * removed or kept for reuse (min_wal_size, 80 MB, and about twice the distance between
 * checkpoints), so the WAL stays near 150 MB. A checkpoint takes about 30 ms here.
 */
export const CHECKPOINT_AFTER = 32 * 1024 * 1024;

/** What a run did to one table. */
export interface UpkeepStep {
  table: string;
  action: 'vacuum analyze' | 'analyze';
  ms: number;
}

interface TableCounters {
  table: string;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  tuples: number;
}

/**
 * PostgreSQL's autovacuum for PGlite, which has none: without it no table is ever vacuumed or
 * analysed, so the planner has no statistics, dead rows pile up, and index-only scans still
 * visit the table for every row (the visibility map stays empty). Each table whose counters
 * pass autovacuum's default thresholds gets `VACUUM (ANALYZE)`, or `ANALYZE` alone, one table at a
 * time. PGlite has one connection, on this process's thread, so a table's turn holds every
 * request meanwhile: the upkeep only starts while the server has had no request for IDLE_MS,
 * and stops between tables as soon as one comes.
 *
 * PGlite has no checkpointer either: it is PostgreSQL's single-user backend, which never
 * checkpoints by WAL volume (max_wal_size), so every byte of WAL written stayed: indexing 2,000
 * pages twice left 1.3 GB of it, on disk (replayed after a crash) or, on an in-memory database,
 * in this process's memory. The upkeep checkpoints once CHECKPOINT_AFTER bytes have been written
 * since the last checkpoint, busy or not: a checkpoint is short.
 */
export class PgliteUpkeep {
  private lastActivity = 0;
  private timer: NodeJS.Timeout | undefined;
  private walTimer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<boolean> | undefined;
  private running: Promise<UpkeepStep[]> | undefined;

  private readonly now: () => number;
  private readonly when: () => boolean;
  private readonly checkpointAfter: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly onError: (err: unknown) => void,
    /** For tests: the clock, and the WAL bytes that call for a checkpoint; `when`: whether the timers' turns run (a database not opened yet needs none). */
    options: { now?: () => number; checkpointAfter?: number; when?: () => boolean } = {},
  ) {
    this.when = options.when ?? (() => true);
    this.now = options.now ?? Date.now;
    this.checkpointAfter = options.checkpointAfter ?? CHECKPOINT_AFTER;
  }

  /** A request came in: the upkeep waits for the next quiet moment. */
  noteActivity(): void {
    this.lastActivity = this.now();
  }

  start(): void {
    this.timer ??= setInterval(() => {
      if (this.when() && this.idle()) this.runOnce({ whileIdle: true }).catch(this.onError);
    }, CHECK_MS).unref();
    this.walTimer ??= setInterval(() => {
      if (this.when()) this.checkpointIfDue().catch(this.onError);
    }, WAL_CHECK_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.walTimer);
    this.timer = undefined;
    this.walTimer = undefined;
    await Promise.all([this.running?.catch(() => undefined), this.checkpointing?.catch(() => undefined)]);
  }

  /** Checkpoints when enough WAL was written since the last checkpoint; tells whether it did. */
  checkpointIfDue(): Promise<boolean> {
    this.checkpointing ??= this.checkpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  private async checkpoint(): Promise<boolean> {
    const { rows } = await sql<{ bytes: string }>`
      select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint as bytes from pg_control_checkpoint()`.execute(this.db);
    if (Number(rows[0]?.bytes ?? 0) < this.checkpointAfter) return false;
    await sql`checkpoint`.execute(this.db);
    return true;
  }

  /**
   * Vacuums and analyses the tables that are due, now, or joins the run under way. With
   * `whileIdle` it stops before the next table once a request has come in.
   */
  runOnce(options: { whileIdle?: boolean } = {}): Promise<UpkeepStep[]> {
    this.running ??= this.run(options.whileIdle === true).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private idle(): boolean {
    return this.now() - this.lastActivity >= IDLE_MS;
  }

  private async run(whileIdle: boolean): Promise<UpkeepStep[]> {
    const steps: UpkeepStep[] = [];
    for (const counters of await this.counters()) {
      if (whileIdle && !this.idle()) break;
      const action = dueAction(counters);
      if (!action) continue;
      const started = performance.now();
      await sql`${sql.raw(action)} ${sql.id(counters.table)}`.execute(this.db);
      steps.push({ table: counters.table, action, ms: performance.now() - started });
    }
    return steps;
  }

  private async counters(): Promise<TableCounters[]> {
    // This backend's counts reach the statistics at most once a second: take them all now.
    await sql`select pg_stat_force_next_flush()`.execute(this.db);
    const { rows } = await sql<TableCounters>`
      select s.relname as "table", s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as "insertedSinceVacuum",
        s.n_mod_since_analyze::float8 as "modifiedSinceAnalyze", greatest(c.reltuples, 0)::float8 as tuples
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema()
      order by s.n_mod_since_analyze + s.n_dead_tup desc`.execute(this.db);
    return rows;
  }
}

/** What autovacuum would do with a table by its default settings: thresholds plus a share of the table's rows. */
export function dueAction(t: TableCounters): UpkeepStep['action'] | undefined {
  const vacuum = t.dead > 50 + 0.2 * t.tuples || t.insertedSinceVacuum > 1000 + 0.2 * t.tuples;
  if (vacuum) return 'vacuum analyze';
  if (t.modifiedSinceAnalyze > 50 + 0.1 * t.tuples) return 'analyze';
  return undefined;
}
