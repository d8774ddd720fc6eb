import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable, DB } from '../../platform/db/schema.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  create(k: { id: string; userName: string; keyHash: string; keyPrefix: string; roles: string[] }): Promise<ApiKeyRow> {
    return this.db
      .insertInto('api_key')
      .values({ id: k.id, user_name: k.userName, key_hash: k.keyHash, key_prefix: k.keyPrefix, roles: k.roles })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_key').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  async setDisabled(id: string, disabled: boolean): Promise<void> {
    await this.db.updateTable('api_key').set({ disabled, updated_at: new Date() }).where('id', '=', id).execute();
  }
}
