import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, EnvironmentTable } from '../../platform/db/schema.js';

/** An environment row with the name of its search index. */
export type EnvironmentRow = Selectable<EnvironmentTable> & { search_index_name: string | null };

/** What a save writes: every stored column but the id and timestamps. */
export type EnvironmentValues = Omit<Selectable<EnvironmentTable>, 'id' | 'created_at' | 'updated_at'>;

export type SaveOutcome = EnvironmentRow | 'missing' | 'pathTaken' | 'noSuchIndex';

/** Environments of the public search front-ends. */
export class EnvironmentRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private select(db: Kysely<DB> = this.db) {
    return db
      .selectFrom('pim_environment as e')
      .leftJoin('search_index as i', 'i.id', 'e.search_index_id')
      .selectAll('e')
      .select('i.name as search_index_name');
  }

  /** Every environment, by title. */
  list(): Promise<EnvironmentRow[]> {
    return this.select().orderBy(sql`lower(e.title)`).orderBy('e.id').execute();
  }

  findById(id: string): Promise<EnvironmentRow | undefined> {
    return this.select().where('e.id', '=', id).executeTakeFirst();
  }

  /** Inserts (no `id` row yet) or updates the environment in one transaction, checking its path and index. */
  save(id: string, values: EnvironmentValues, mode: 'create' | 'update'): Promise<SaveOutcome> {
    return this.db.transaction().execute(async (trx) => {
      // Serialises saves of the same path, so two environments cannot both take it.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`pim_environment:${values.path}`}))`.execute(trx);
      if (values.search_index_id) {
        const index = await trx.selectFrom('search_index').select('id').where('id', '=', values.search_index_id).forShare().executeTakeFirst();
        if (!index) return 'noSuchIndex';
      }
      const other = await trx.selectFrom('pim_environment').select('id').where('path', '=', values.path).where('id', '<>', id).executeTakeFirst();
      if (other) return 'pathTaken';
      const row = { ...values, switches: JSON.stringify(values.switches) };
      if (mode === 'create') {
        await trx.insertInto('pim_environment').values({ id, ...row }).execute();
      } else {
        const result = await trx
          .updateTable('pim_environment')
          .set({ ...row, updated_at: sql`now()` })
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return 'missing';
      }
      return (await this.select(trx).where('e.id', '=', id).executeTakeFirstOrThrow()) as EnvironmentRow;
    });
  }
}
