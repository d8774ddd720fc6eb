import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { ACL_PERMISSIONS, type AclPermission } from '@pim/contract';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import { visibleOwned } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';

/** Permissions that satisfy a required one: each includes those before it (READ < WRITE < DELETE < ADMIN). */
export function grantingPermissions(required: AclPermission): AclPermission[] {
  return ACL_PERMISSIONS.slice(ACL_PERMISSIONS.indexOf(required));
}

/**
 * SQL that is true when an ACL entry on `subjectId` grants `required` to one of the user's groups:
 * a group they are a member of with the entry's role, or any group above it (members of a
 * sub-group belong to its parents too). UNION stops on cycles in the group graph. A deleted group
 * grants nothing.
 */
export function aclGrants(userId: string, subjectId: Expression<string>, required: AclPermission): Expression<SqlBool> {
  const permissions = grantingPermissions(required);
  return sql<SqlBool>`exists (
    with recursive my_groups(group_id, role) as (
      select m.group_id, m.role from group_membership m where m.user_id = ${userId}
      union
      select s.parent_id, g.role from group_subgroup s join my_groups g on s.child_id = g.group_id
    )
    select 1 from acl_entry e
    join my_groups g on g.group_id = e.group_id and lower(g.role) = lower(e.role)
    join pim_group pg on pg.id = e.group_id and pg.deleted_at is null
    where e.subject_id = ${subjectId} and e.permission in (${sql.join(permissions)})
  )`;
}

/**
 * SQL that is true for the sets (under `alias`) a caller may read in a list or picker: the
 * policy's scope, with ACL grants decided by `aclGrants`. Deleted sets are the caller's query's
 * business.
 */
export function visibleSets(scope: VisibilityScope, alias: string): Expression<SqlBool> {
  return visibleOwned(scope, { ownerId: `${alias}.owner_id`, isPublic: `${alias}.public_document_image_set` }, (userId) =>
    aclGrants(userId, sql.ref(`${alias}.id`), 'READ'),
  );
}

/**
 * The ids of the live sets a caller may read (scope not `all`). Looked up on their own, before a
 * query that filters by them: the planner cannot estimate a visibility rule, and evaluated per
 * joined row it would check each set's grants again for every image or line.
 */
export async function readableSetIds(db: Kysely<DB>, scope: VisibilityScope): Promise<string[]> {
  const sets = await db.selectFrom('document_image_set as s').select('s.id').where('s.deleted_at', 'is', null).where(visibleSets(scope, 's')).execute();
  return sets.map((s) => s.id);
}

/**
 * `with recursive tree(id) as (...)`, to begin a query that joins `tree`: the set `root` and its
 * live sub-sets the scope may read, at any depth (UNION stops on a loop). A sub-set the caller may
 * not read is left out with what lies below it: its images are not theirs to see through the root.
 */
export function readableSetTree(root: RawBuilder<unknown>, scope: VisibilityScope): RawBuilder<unknown> {
  return sql`with recursive tree(id) as (
    select ${root}
    union
    select c.child_id from image_set_subset c
    join tree p on c.parent_id = p.id
    join document_image_set sub on sub.id = c.child_id and sub.deleted_at is null and ${visibleSets(scope, 'sub')}
  )`;
}

/**
 * SQL that is true for the images (under `alias`) a caller may read: their own, or held by a live
 * set they may read (the rule of ImageSetAccess.requireImage).
 */
export function visibleImages(scope: VisibilityScope, alias: string): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`true`;
  const owned = scope.ownerId ? sql<SqlBool>`${sql.ref(`${alias}.owner_id`)} = ${scope.ownerId}` : sql<SqlBool>`false`;
  return sql<SqlBool>`(${owned} or exists (
    select 1 from image_set_image held join document_image_set hs on hs.id = held.set_id
    where held.image_id = ${sql.ref(`${alias}.id`)} and hs.deleted_at is null and ${visibleSets(scope, 'hs')}
  ))`;
}

export interface SetAccessFacts {
  id: string;
  ownerId: string | null;
  isPublic: boolean;
  /** Marked for publication (the set's `publish`): with isPublic, open to anonymous IIIF clients. */
  published: boolean;
  deleted: boolean;
}

export class AccessRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findSet(setId: string): Promise<SetAccessFacts | undefined> {
    const row = await this.db
      .selectFrom('document_image_set')
      .select(['id', 'owner_id', 'public_document_image_set', 'publish', 'deleted_at'])
      .where('id', '=', setId)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        ownerId: row.owner_id,
        isPublic: row.public_document_image_set,
        published: row.publish,
        deleted: row.deleted_at !== null,
      }
    );
  }

  /** Whether a live set that is public and published holds the image. */
  async openSetHolds(imageId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image_set as s', 's.id', 'm.set_id')
      .select('m.set_id')
      .where('m.image_id', '=', imageId)
      .where('s.deleted_at', 'is', null)
      .where('s.public_document_image_set', '=', true)
      .where('s.publish', '=', true)
      .executeTakeFirst();
    return row !== undefined;
  }

  async aclGrants(userId: string, setId: string, required: AclPermission): Promise<boolean> {
    const { rows } = await sql<{ granted: boolean }>`select ${aclGrants(userId, sql.val(setId), required)} as granted`.execute(
      this.db,
    );
    return rows[0]?.granted === true;
  }

  /** Sets (not deleted) that hold the image, to decide access to the image through them. */
  async setsHoldingImage(imageId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image_set as s', 's.id', 'm.set_id')
      .select('m.set_id')
      .where('m.image_id', '=', imageId)
      .where('s.deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.set_id);
  }

  findImageOwner(imageId: string): Promise<{ ownerId: string | null } | undefined> {
    return this.db.selectFrom('document_image').select('owner_id as ownerId').where('id', '=', imageId).executeTakeFirst();
  }
}
