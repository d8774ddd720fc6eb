import { type Kysely, sql } from 'kysely';
import { containsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleSets } from '../imagesets/access-repository.js';
import type { VisibilityScope } from '../../platform/auth/policy.js';

export interface SearchIndexRecord {
  id: string;
  name: string;
}

/** Search indices, and the image sets that are indexed into one. */
export class SearchIndexRepository {
  constructor(private readonly db: Kysely<DB>) {}

  list(): Promise<SearchIndexRecord[]> {
    return this.db.selectFrom('search_index').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  }

  findById(id: string): Promise<SearchIndexRecord | undefined> {
    return this.db.selectFrom('search_index').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  /** Inserts the index; false when the name is taken. */
  async create(index: SearchIndexRecord): Promise<boolean> {
    const row = await this.db
      .insertInto('search_index')
      .values(index)
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Renames the index; 'taken' when another index has the name. */
  async rename(id: string, name: string): Promise<'renamed' | 'missing' | 'taken'> {
    return this.db.transaction().execute(async (trx) => {
      const other = await trx.selectFrom('search_index').select('id').where('name', '=', name).where('id', '<>', id).executeTakeFirst();
      if (other) return 'taken';
      const result = await trx
        .updateTable('search_index')
        .set({ name, updated_at: sql`now()` })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n ? 'renamed' : 'missing';
    });
  }

  /** A page of indices whose name contains `filter`, by name. */
  autocomplete(query: { filter: string; skip: number; limit: number }): Promise<SearchIndexRecord[]> {
    let q = this.db.selectFrom('search_index').select(['id', 'name']);
    if (query.filter) q = q.where(containsText('name', query.filter));
    return q.orderBy('name').orderBy('id').offset(query.skip).limit(query.limit).execute();
  }

  /** The live image sets in `scope` that use the index, by name. */
  imageSetsOf(indexId: string, scope: VisibilityScope): Promise<{ id: string; name: string }[]> {
    return this.db
      .selectFrom('document_image_set as s')
      .select(['s.id', 's.name'])
      .where('s.search_index_id', '=', indexId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .orderBy(sql`lower(s.name)`)
      .orderBy('s.id')
      .execute();
  }
}
