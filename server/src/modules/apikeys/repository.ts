import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable, DB } from '../../platform/db/schema.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** API keys of service accounts ("minions"): only the key's SHA-256 and its first characters are stored. */
export class ApiKeyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  create(k: { id: string; userName: string; keyHash: string; keyPrefix: string; roles: string[] }): Promise<ApiKeyRow> {
    return this.db
      .insertInto('api_key')
      .values({ id: k.id, user_name: k.userName, key_hash: k.keyHash, key_prefix: k.keyPrefix, roles: k.roles })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Every key, newest first. */
  list(): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('api_key').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  }

  findById(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_key').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_key').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  /** Keys whose stored prefix is `prefix` (at most two: enough to tell one from several). */
  findByPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('api_key').selectAll().where('key_prefix', '=', prefix).limit(2).execute();
  }

  async setDisabled(id: string, disabled: boolean): Promise<ApiKeyRow> {
    return this.db
      .updateTable('api_key')
      .set({ disabled, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
