import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

export interface ActiveSession {
  userId: string;
  name: string;
  email: string | null;
  roles: string[];
  expiresAt: Date;
}

export class SessionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.insertInto('user_session').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute();
  }

  /** The session behind a token, if it has not expired and its user may still sign in. */
  async findActive(tokenHash: string, now: Date): Promise<ActiveSession | undefined> {
    const row = await this.db
      .selectFrom('user_session as s')
      .innerJoin('pim_user as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.name', 'u.email', 'u.roles', 's.expires_at'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', now)
      .where('u.disabled', '=', false)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    return row && { userId: row.id, name: row.name, email: row.email, roles: row.roles, expiresAt: row.expires_at };
  }

  async delete(tokenHash: string): Promise<boolean> {
    const r = await this.db.deleteFrom('user_session').where('token_hash', '=', tokenHash).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('user_session').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('user_session').where('expires_at', '<=', now).execute();
  }
}
