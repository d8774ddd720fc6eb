import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../../db/schema.js';

/**
 * oidc-provider's storage adapter on our database (`oidc_provider_state`). Its built-in memory
 * adapter would tie a sign-in to the process that started it; this one lets any server process
 * continue it, and survives restarts.
 */
export class ProviderStorage {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The adapter factory oidc-provider asks for: one adapter per model (Session, Grant, ...). */
  readonly adapterFor = (model: string): Adapter => new ModelAdapter(this.db, model, this.now);
}

class ModelAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly model: string,
    private readonly now: () => Date,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresIn ? new Date(this.now().getTime() + expiresIn * 1000) : null,
    };
    await this.db
      .insertInto('oidc_provider_state')
      .values({ model: this.model, id, ...row })
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
      .execute();
    // Housekeeping on the side, once per sign-in: expired entries are never read anyway.
    if (this.model === 'Interaction') {
      await this.db.deleteFrom('oidc_provider_state').where('expires_at', '<', this.now()).execute();
    }
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    const consumed = Math.floor(this.now().getTime() / 1000);
    await this.db
      .updateTable('oidc_provider_state')
      .set({ payload: sql`payload || jsonb_build_object('consumed', ${consumed}::bigint)` })
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_provider_state').where('model', '=', this.model).where('id', '=', id).execute();
  }

  /** Revoking a grant removes everything issued under it, whatever its model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_provider_state').where('grant_id', '=', grantId).execute();
  }

  private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_provider_state')
      .select('payload')
      .where('model', '=', this.model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', this.now())]))
      .executeTakeFirst();
    return row?.payload as AdapterPayload | undefined;
  }
}
