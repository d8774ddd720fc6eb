import { sql, type Kysely, type Selectable } from 'kysely';
import type { ConfigurationTable, DB } from '../../platform/db/schema.js';

export type ConfigurationRow = Selectable<ConfigurationTable>;

/** Configurations: server settings as unique keys with a text value. */
export class ConfigurationRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every configuration, by key. */
  list(): Promise<ConfigurationRow[]> {
    return this.db.selectFrom('pim_configuration').selectAll().orderBy('key').execute();
  }

  findByUuid(uuid: string): Promise<ConfigurationRow | undefined> {
    return this.db.selectFrom('pim_configuration').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  findById(id: number): Promise<ConfigurationRow | undefined> {
    return this.db.selectFrom('pim_configuration').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts the configuration; undefined when the key is taken. */
  create(c: { uuid: string; key: string; value: string }): Promise<ConfigurationRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockKey(trx, c.key);
      return trx
        .insertInto('pim_configuration')
        .values(c)
        .onConflict((oc) => oc.column('key').doNothing())
        .returningAll()
        .executeTakeFirst();
    });
  }

  /** Changes key and value; 'taken' when another configuration has the key. */
  update(uuid: string, c: { key: string; value: string }): Promise<ConfigurationRow | 'missing' | 'taken'> {
    return this.db.transaction().execute(async (trx) => {
      await lockKey(trx, c.key);
      const other = await trx
        .selectFrom('pim_configuration')
        .select('id')
        .where('key', '=', c.key)
        .where('uuid', '<>', uuid)
        .executeTakeFirst();
      if (other) return 'taken';
      const row = await trx
        .updateTable('pim_configuration')
        .set({ key: c.key, value: c.value, updated_at: sql`now()` })
        .where('uuid', '=', uuid)
        .returningAll()
        .executeTakeFirst();
      return row ?? 'missing';
    });
  }

  async delete(uuid: string): Promise<boolean> {
    const result = await this.db.deleteFrom('pim_configuration').where('uuid', '=', uuid).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

/** Serialises writers of one key, so a create and a rename to the same key cannot both pass the check. */
async function lockKey(trx: Kysely<DB>, key: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`pim_configuration:${key}`}))`.execute(trx);
}
