import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Secrets the server makes once and keeps in `server_secret` (signing keys, cookie keys, client secret). */
export class ServerSecretRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The stored value, or `make()` stored now. When several processes start at once, the first
   * insert wins and every one of them reads that value back.
   */
  async getOrCreate(name: string, make: () => string): Promise<string> {
    const existing = await this.find(name);
    if (existing !== undefined) return existing;
    await this.db
      .insertInto('server_secret')
      .values({ name, value: make() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const stored = await this.find(name);
    if (stored === undefined) throw new Error(`The server secret ${name} could not be stored.`);
    return stored;
  }

  private async find(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('server_secret').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }
}

/** Failed sign-ins at the embedded provider, for its rate limit. */
export class LoginFailureRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async record(email: string, ip: string, at: Date): Promise<string> {
    const row = await this.db
      .insertInto('login_failure')
      .values({ email, ip, failed_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('login_failure').where('id', '=', id).execute();
  }

  /**
   * The time of the n-th most recent failure since `since` for this email (or address), if there
   * were that many: the limit holds until that failure is older than the window.
   */
  async nthMostRecent(by: 'email' | 'ip', value: string, n: number, since: Date): Promise<Date | undefined> {
    const row = await this.db
      .selectFrom('login_failure')
      .select('failed_at')
      .where(by, '=', value)
      .where('failed_at', '>', since)
      .orderBy('failed_at', 'desc')
      .offset(n - 1)
      .limit(1)
      .executeTakeFirst();
    return row?.failed_at;
  }

  async clearEmail(email: string): Promise<void> {
    await this.db.deleteFrom('login_failure').where('email', '=', email).execute();
  }

  async deleteBefore(before: Date): Promise<void> {
    await this.db.deleteFrom('login_failure').where('failed_at', '<', before).execute();
  }
}
