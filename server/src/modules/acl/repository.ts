import type { Kysely } from 'kysely';
import type { AclPermission } from '@pim/contract';
import type { DB } from '../../platform/db/schema.js';

export interface AclEntryRecord {
  id: string;
  subjectId: string;
  group: { id: string; name: string };
  role: string;
  permission: AclPermission;
}

/** ACL entries: a permission on a subject (an image set) for the members of a group with a role. */
export class AclRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The entries of the subject whose group is live, by group name, role and permission. */
  async listFor(subjectId: string): Promise<AclEntryRecord[]> {
    const rows = await this.db
      .selectFrom('acl_entry as e')
      .innerJoin('pim_group as g', 'g.id', 'e.group_id')
      .select(['e.id', 'e.subject_id', 'e.group_id', 'g.name as group_name', 'e.role', 'e.permission'])
      .where('e.subject_id', '=', subjectId)
      .where('g.deleted_at', 'is', null)
      .orderBy('g.name')
      .orderBy('e.role')
      .orderBy('e.permission')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      subjectId: r.subject_id,
      group: { id: r.group_id, name: r.group_name },
      role: r.role,
      permission: r.permission as AclPermission,
    }));
  }

  findById(id: string): Promise<{ id: string; subjectId: string } | undefined> {
    return this.db.selectFrom('acl_entry').select(['id', 'subject_id as subjectId']).where('id', '=', id).executeTakeFirst();
  }

  /** Adds the entry; false when the same grant is there already. */
  async add(entry: { id: string; subjectId: string; groupId: string; role: string; permission: AclPermission }): Promise<boolean> {
    const row = await this.db
      .insertInto('acl_entry')
      .values({
        id: entry.id,
        subject_id: entry.subjectId,
        group_id: entry.groupId,
        role: entry.role,
        permission: entry.permission,
      })
      .onConflict((oc) => oc.columns(['subject_id', 'group_id', 'role', 'permission']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('acl_entry').where('id', '=', id).execute();
  }
}
