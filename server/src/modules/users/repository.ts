import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { containsText } from '../../platform/db/conditions.js';
import type { DB, PimUserTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<PimUserTable>;

/** A user with the live groups they are a direct member of, by name. */
export interface UserWithGroups extends UserRow {
  groups: { id: string; name: string }[];
}

/** SQL that is true when the user row (under `alias`) holds ADMIN, in any case. */
const holdsAdmin = (alias: string) => sql<boolean>`exists (select 1 from unnest(${sql.ref(`${alias}.roles`)}) r where lower(r) = 'admin')`;

export interface NewUser {
  id: string;
  name: string;
  email: string | null;
  persistentId: string | null;
  googleId?: string | null;
  passwordHash?: string | null;
  roles?: string[];
}

export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (tx: UserRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new UserRepository(trx)));
  }

  /** Serializes changes to who is an active admin, so two requests cannot both remove 'the other' last admin. */
  async lockAdmins(): Promise<void> {
    await sql`select pg_advisory_xact_lock(727004)`.execute(this.db);
  }

  /** Enabled, not deleted users holding ADMIN. */
  async countActiveAdmins(): Promise<number> {
    const r = await this.db
      .selectFrom('pim_user as u')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('u.deleted_at', 'is', null)
      .where('u.disabled', '=', false)
      .where(holdsAdmin('u'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Every live user by name, with their groups: two queries whatever the number of users. */
  async list(): Promise<UserWithGroups[]> {
    const users = await this.db.selectFrom('pim_user').selectAll().where('deleted_at', 'is', null).orderBy(sql`lower(name)`).orderBy('id').execute();
    return this.withGroups(users);
  }

  async findWithGroups(id: string): Promise<UserWithGroups | undefined> {
    const user = await this.findById(id);
    return user && (await this.withGroups([user]))[0];
  }

  private async withGroups(users: UserRow[]): Promise<UserWithGroups[]> {
    if (users.length === 0) return [];
    const rows = await this.db
      .selectFrom('group_membership as m')
      .innerJoin('pim_group as g', 'g.id', 'm.group_id')
      .select(['m.user_id', 'g.id', 'g.name'])
      .distinct()
      .where('g.deleted_at', 'is', null)
      .where(
        'm.user_id',
        'in',
        users.map((u) => u.id),
      )
      .execute();
    const byUser = new Map<string, { id: string; name: string }[]>();
    for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), { id: r.id, name: r.name }]);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
    return users.map((u) => ({ ...u, groups: (byUser.get(u.id) ?? []).sort(byName) }));
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('pim_user').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByPersistentId(persistentId: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('pim_user').selectAll().where('persistent_id', '=', persistentId).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('pim_user')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** A page of live, enabled users whose name or email contains `filter` (any case), by name. */
  autocomplete(q: { filter: string; skip: number; limit: number }): Promise<{ id: string; name: string }[]> {
    let query = this.db.selectFrom('pim_user').select(['id', 'name']).where('deleted_at', 'is', null).where('disabled', '=', false);
    if (q.filter) {
      query = query.where((eb) => eb.or([containsText('name', q.filter), containsText('email', q.filter)]));
    }
    return query.orderBy(sql`lower(name)`).orderBy('id').offset(q.skip).limit(q.limit).execute();
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('pim_user').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async create(u: NewUser): Promise<UserRow> {
    return this.db
      .insertInto('pim_user')
      .values({
        id: u.id,
        name: u.name,
        email: u.email,
        persistent_id: u.persistentId,
        google_id: u.googleId ?? null,
        password_hash: u.passwordHash ?? null,
        roles: u.roles ?? [],
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(
    id: string,
    changes: Partial<{
      name: string;
      email: string | null;
      persistentId: string | null;
      googleId: string | null;
      passwordHash: string | null;
      roles: string[];
      disabled: boolean;
      avatar: string | null;
      primaryGroupId: string | null;
    }>,
  ): Promise<UserRow> {
    return this.db
      .updateTable('pim_user')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.email !== undefined && { email: changes.email }),
        ...(changes.persistentId !== undefined && { persistent_id: changes.persistentId }),
        ...(changes.googleId !== undefined && { google_id: changes.googleId }),
        ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
        ...(changes.roles !== undefined && { roles: changes.roles }),
        ...(changes.disabled !== undefined && { disabled: changes.disabled }),
        ...(changes.avatar !== undefined && { avatar: changes.avatar }),
        ...(changes.primaryGroupId !== undefined && { primary_group_id: changes.primaryGroupId }),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
