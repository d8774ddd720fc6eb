import { type Kysely, sql } from 'kysely';
import { containsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';

export interface GroupRecord {
  id: string;
  name: string;
}

export interface GroupSummary extends GroupRecord {
  memberCount: number;
  subgroupCount: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface MembershipRecord {
  id: string;
  role: string;
  user: { id: string; name: string; email: string | null; disabled: boolean };
}

export interface GroupHierarchyRecord extends GroupRecord {
  subgroups: GroupRecord[];
  memberships: MembershipRecord[];
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

  async rename(id: string, name: string): Promise<void> {
    await this.db.updateTable('pim_group').set({ name, updated_at: new Date() }).where('id', '=', id).execute();
  }

  /** Soft delete: the row stays, the group is gone from every list and grants nothing. */
  async softDelete(id: string): Promise<void> {
    await this.db.updateTable('pim_group').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', id).execute();
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

  /** Live groups by name (or the one asked for) with their direct members and live sub-groups counted, in one query. */
  list(onlyId?: string): Promise<GroupSummary[]> {
    let q = this.db
      .selectFrom('pim_group as g')
      .select((eb) => [
        'g.id',
        'g.name',
        'g.created_at as createdAt',
        'g.updated_at as updatedAt',
        'g.deleted_at as deletedAt',
        eb
          .selectFrom('group_membership as m')
          .select((e) => e.fn.countAll<string>().as('n'))
          .whereRef('m.group_id', '=', 'g.id')
          .as('memberCount'),
        eb
          .selectFrom('group_subgroup as s')
          .innerJoin('pim_group as c', 'c.id', 's.child_id')
          .select((e) => e.fn.countAll<string>().as('n'))
          .whereRef('s.parent_id', '=', 'g.id')
          .where('c.deleted_at', 'is', null)
          .as('subgroupCount'),
      ])
      .where('g.deleted_at', 'is', null);
    if (onlyId) q = q.where('g.id', '=', onlyId);
    return q
      .orderBy(sql`lower(g.name)`)
      .orderBy('g.id')
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, memberCount: Number(r.memberCount ?? 0), subgroupCount: Number(r.subgroupCount ?? 0) })));
  }

  /** The group's live direct sub-groups by name and its direct memberships by user name, then role. */
  async hierarchy(group: GroupRecord): Promise<GroupHierarchyRecord> {
    const subgroups = await this.db
      .selectFrom('group_subgroup as s')
      .innerJoin('pim_group as c', 'c.id', 's.child_id')
      .select(['c.id', 'c.name'])
      .where('s.parent_id', '=', group.id)
      .where('c.deleted_at', 'is', null)
      .orderBy(sql`lower(c.name)`)
      .orderBy('c.id')
      .execute();
    const rows = await this.db
      .selectFrom('group_membership as m')
      .innerJoin('pim_user as u', 'u.id', 'm.user_id')
      .select(['m.id', 'm.role', 'u.id as userId', 'u.name', 'u.email', 'u.disabled'])
      .where('m.group_id', '=', group.id)
      .where('u.deleted_at', 'is', null)
      .orderBy(sql`lower(u.name)`)
      .orderBy('m.role')
      .orderBy('m.id')
      .execute();
    return {
      ...group,
      subgroups,
      memberships: rows.map((r) => ({ id: r.id, role: r.role, user: { id: r.userId, name: r.name, email: r.email, disabled: r.disabled } })),
    };
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

  /** Removes a membership of the group; false when the group has no such membership. */
  async removeMembership(groupId: string, membershipId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('group_membership')
      .where('id', '=', membershipId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A user who exists and is not deleted. */
  async liveUserExists(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('pim_user').select('id').where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
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

  /** Puts the child under the parent; false when it is there already. */
  async addSubgroup(parentId: string, childId: string): Promise<boolean> {
    const row = await this.db
      .insertInto('group_subgroup')
      .values({ parent_id: parentId, child_id: childId })
      .onConflict((oc) => oc.columns(['parent_id', 'child_id']).doNothing())
      .returning('child_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Takes the child from under the parent; false when it was not a direct child. */
  async removeSubgroup(parentId: string, childId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('group_subgroup')
      .where('parent_id', '=', parentId)
      .where('child_id', '=', childId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touch(id: string): Promise<void> {
    await this.db.updateTable('pim_group').set({ updated_at: new Date() }).where('id', '=', id).execute();
  }

  /**
   * A page of live groups whose name contains `filter` (any case), by name. With `subgroupsOf`,
   * only those that may become its sub-group: not the group itself, not a group above it (a loop)
   * and not one of its direct children already.
   */
  autocomplete(query: { filter: string; skip: number; limit: number; subgroupsOf?: string }): Promise<GroupRecord[]> {
    let q = this.db.selectFrom('pim_group as g').select(['g.id', 'g.name']).where('g.deleted_at', 'is', null);
    if (query.filter) q = q.where(containsText('g.name', query.filter));
    const parent = query.subgroupsOf;
    if (parent) {
      q = q.where(
        sql<boolean>`g.id not in (
          with recursive above(id) as (
            select ${parent}::uuid
            union
            select s.parent_id from group_subgroup s join above a on s.child_id = a.id
          )
          select id from above
          union
          select child_id from group_subgroup where parent_id = ${parent}::uuid
        )`,
      );
    }
    return q.orderBy(sql`lower(g.name)`).orderBy('g.id').offset(query.skip).limit(query.limit).execute();
  }
}
