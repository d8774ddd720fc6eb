import { type Kysely, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleSets } from './access-repository.js';

export interface HierarchyItem {
  id: string;
  name: string;
}

/**
 * Serializes every change to the sub-set graph: the cycle check and the insert must see the same
 * graph, or two calls adding A under B and B under A at once would both pass their check.
 */
const SUBSET_GRAPH_LOCK = 727002;

/** The links between a set and its sub-sets and images, each kept in its own order. */
export class HierarchyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction with a repository bound to it; a throw rolls it all back. */
  transaction<T>(work: (tx: HierarchyRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new HierarchyRepository(trx)));
  }

  async lockSubsetGraph(): Promise<void> {
    await sql`select pg_advisory_xact_lock(${SUBSET_GRAPH_LOCK})`.execute(this.db);
  }

  /** Holds the set's row until the transaction ends, so positions are numbered one at a time. */
  async lockSet(setId: string): Promise<void> {
    await this.db.selectFrom('document_image_set').select('id').where('id', '=', setId).forUpdate().execute();
  }

  /** The set's live sub-sets that `scope` may read, in order. */
  subsets(setId: string, scope: VisibilityScope): Promise<HierarchyItem[]> {
    return this.db
      .selectFrom('image_set_subset as l')
      .innerJoin('document_image_set as s', 's.id', 'l.child_id')
      .select(['s.id', 's.name'])
      .where('l.parent_id', '=', setId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .orderBy('l.position')
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  }

  /** Every sub-set link of the set, whoever may see it: Sort numbers them all. */
  allSubsets(setId: string): Promise<HierarchyItem[]> {
    return this.db
      .selectFrom('image_set_subset as l')
      .innerJoin('document_image_set as s', 's.id', 'l.child_id')
      .select(['s.id', 's.name'])
      .where('l.parent_id', '=', setId)
      .orderBy('l.position')
      .execute();
  }

  /** The set's images in order; an image is named by its label. */
  images(setId: string): Promise<HierarchyItem[]> {
    return this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as i', 'i.id', 'm.image_id')
      .select(['i.id', 'i.label as name'])
      .where('m.set_id', '=', setId)
      .orderBy('m.position')
      .orderBy('i.label')
      .orderBy('i.id')
      .execute();
  }

  /**
   * True when `candidateId` is `setId` itself or a live set above it: putting the candidate
   * under `setId` would then close a loop. UNION stops on a loop already there.
   */
  async isSelfOrAncestor(candidateId: string, setId: string): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`
      with recursive above(id) as (
        select ${setId}::uuid
        union
        select l.parent_id from image_set_subset l
        join above a on l.child_id = a.id
        join document_image_set s on s.id = l.parent_id and s.deleted_at is null
      )
      select exists (select 1 from above where id = ${candidateId}::uuid) as found`.execute(this.db);
    return rows[0]?.found === true;
  }

  /** Appends the sub-set after the last one; false when it was already there. */
  async addSubset(parentId: string, childId: string): Promise<boolean> {
    const result = await this.db
      .insertInto('image_set_subset')
      .columns(['parent_id', 'child_id', 'position'])
      .expression((eb) =>
        eb
          .selectFrom('image_set_subset')
          .select([
            sql<string>`${parentId}::uuid`.as('parent_id'),
            sql<string>`${childId}::uuid`.as('child_id'),
            sql<number>`coalesce(max(position), -1) + 1`.as('position'),
          ])
          .where('parent_id', '=', parentId),
      )
      .onConflict((oc) => oc.columns(['parent_id', 'child_id']).doNothing())
      .returning('child_id')
      .executeTakeFirst();
    return result !== undefined;
  }

  /** The set's live sub-set made from `remoteUri` (a harvested manifest or collection) that `scope` may read. */
  subsetFrom(setId: string, remoteUri: string, scope: VisibilityScope): Promise<HierarchyItem | undefined> {
    return this.db
      .selectFrom('image_set_subset as l')
      .innerJoin('document_image_set as s', 's.id', 'l.child_id')
      .select(['s.id', 's.name'])
      .where('l.parent_id', '=', setId)
      .where('s.remote_uri', '=', remoteUri)
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .orderBy('l.position')
      .limit(1)
      .executeTakeFirst();
  }

  /** A new set, put under `parentId` after its last sub-set. */
  async createSubset(parentId: string, child: { id: string; name: string; ownerId: string | null; remoteUri: string | null }): Promise<void> {
    await this.db
      .insertInto('document_image_set')
      .values({ id: child.id, name: child.name, owner_id: child.ownerId, remote_uri: child.remoteUri })
      .execute();
    await this.addSubset(parentId, child.id);
  }

  async removeSubset(parentId: string, childId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('image_set_subset')
      .where('parent_id', '=', parentId)
      .where('child_id', '=', childId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Appends the image after the last one; false when it was already there. */
  async addImage(setId: string, imageId: string): Promise<boolean> {
    const result = await this.db
      .insertInto('image_set_image')
      .columns(['set_id', 'image_id', 'position'])
      .expression((eb) =>
        eb
          .selectFrom('image_set_image')
          .select([
            sql<string>`${setId}::uuid`.as('set_id'),
            sql<string>`${imageId}::uuid`.as('image_id'),
            sql<number>`coalesce(max(position), -1) + 1`.as('position'),
          ])
          .where('set_id', '=', setId),
      )
      .onConflict((oc) => oc.columns(['set_id', 'image_id']).doNothing())
      .returning('image_id')
      .executeTakeFirst();
    return result !== undefined;
  }

  async removeImage(setId: string, imageId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('image_set_image')
      .where('set_id', '=', setId)
      .where('image_id', '=', imageId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Numbers the set's sub-sets and images 0, 1, 2... in the order of the given ids. */
  async renumber(setId: string, subsetIds: string[], imageIds: string[]): Promise<void> {
    if (subsetIds.length) {
      await sql`
        update image_set_subset l set position = v.n - 1
        from unnest(${subsetIds}::uuid[]) with ordinality as v(id, n)
        where l.parent_id = ${setId}::uuid and l.child_id = v.id`.execute(this.db);
    }
    if (imageIds.length) {
      await sql`
        update image_set_image m set position = v.n - 1
        from unnest(${imageIds}::uuid[]) with ordinality as v(id, n)
        where m.set_id = ${setId}::uuid and m.image_id = v.id`.execute(this.db);
    }
  }
}
