import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';

/**
 * Runs `run` with these planner settings for its statements: in a transaction of its own, or,
 * where `db` is a transaction already (a search asked again in one snapshot), within it, the
 * settings put back afterwards. Statements running alongside in that transaction see them too:
 * settings change plans, never answers.
 */
export async function withLocalSettings<T>(db: Kysely<DB>, settings: Record<string, string>, run: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const entries = Object.entries(settings);
  if (!db.isTransaction) {
    return db.transaction().execute(async (trx) => {
      for (const [name, value] of entries) await sql`select set_config(${name}, ${value}, true)`.execute(trx);
      return run(trx);
    });
  }
  const before: [string, string][] = [];
  for (const [name, value] of entries) {
    const row = await sql<{ old: string }>`select current_setting(${name}) as old, set_config(${name}, ${value}, true)`.execute(db);
    before.push([name, row.rows[0]!.old]);
  }
  try {
    return await run(db);
  } finally {
    for (const [name, old] of before.reverse()) await sql`select set_config(${name}, ${old}, true)`.execute(db);
  }
}
