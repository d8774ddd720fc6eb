import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { containsText } from '../../platform/db/conditions.js';
import type { DB, PimUserTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<PimUserTable>;

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
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
