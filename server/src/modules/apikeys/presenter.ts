import type { ApiKey } from '@pim/contract';
import type { ApiKeyRow } from './repository.js';

/** A key as the list shows it: its first characters only. With `apiKey`, the whole key (only in the answer of its creation). */
export function presentApiKey(row: ApiKeyRow, apiKey?: string): ApiKey {
  return {
    uuid: row.id,
    userName: row.user_name,
    apiKey: apiKey ?? `${row.key_prefix}…`,
    roles: row.roles,
    disabled: row.disabled,
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
  };
}
