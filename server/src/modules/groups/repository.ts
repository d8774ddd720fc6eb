import { type Kysely, sql } from 'kysely';
import { containsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';

export interface GroupRecord {
  id: string;
  name: string;
}

/** Groups, their members (with a role) and their sub-groups. */
export class GroupRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (tx: GroupRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new GroupRepository(trx)));
  }

  async create(group: GroupRecord): Promise<void> {
    await this.db.insertInto('pim_group').values({ id: group.id, name: group.name }).execute();
  }

  /** A live (not deleted) group. */
  findById(id: string): Promise<GroupRecord | undefined> {
    return this.db
      .selectFrom('pim_group')
      .select(['id', 'name'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Adds the membership; false when the user already holds this role in the group. */
  async addMembership(m: { id: string; groupId: string; userId: string; role: string }): Promise<boolean> {
    const row = await this.db
      .insertInto('group_membership')
      .values({ id: m.id, group_id: m.groupId, user_id: m.userId, role: m.role })
      .onConflict((oc) => oc.columns(['group_id', 'user_id', 'role']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async userExists(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('pim_user').select('id').where('id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  /** Serializes changes to the group graph so a cycle check and its insert see the same graph. */
  async lockGroupGraph(): Promise<void> {
    await sql`select pg_advisory_xact_lock(727003)`.execute(this.db);
  }

  /** True when `candidateId` is `groupId` or a group above it. */
  async isSelfOrAncestor(candidateId: string, groupId: string): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`
      with recursive above(id) as (
        select ${groupId}::uuid
        union
        select s.parent_id from group_subgroup s join above a on s.child_id = a.id
      )
      select exists (select 1 from above where id = ${candidateId}::uuid) as found`.execute(this.db);
    return rows[0]?.found === true;
  }

  async addSubgroup(parentId: string, childId: string): Promise<void> {
    await this.db
      .insertInto('group_subgroup')
      .values({ parent_id: parentId, child_id: childId })
      .onConflict((oc) => oc.columns(['parent_id', 'child_id']).doNothing())
      .execute();
  }

  /** A page of live groups whose name contains `filter` (any case), by name. */
  autocomplete(query: { filter: string; skip: number; limit: number }): Promise<GroupRecord[]> {
    let q = this.db.selectFrom('pim_group').select(['id', 'name']).where('deleted_at', 'is', null);
    if (query.filter) q = q.where(containsText('name', query.filter));
    return q.orderBy(sql`lower(name)`).orderBy('id').offset(query.skip).limit(query.limit).execute();
  }
}
