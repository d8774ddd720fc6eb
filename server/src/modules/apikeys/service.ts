import { randomUUID } from 'node:crypto';
import type { Principal } from '../../platform/auth/principal.js';
import { hashSecret, randomToken } from '../../platform/auth/tokens.js';
import { badRequest, unauthorized } from '../../platform/errors.js';
import { effectiveRoles } from '../sessions/service.js';
import type { ApiKeyRepository, ApiKeyRow } from './repository.js';

/** Keys start with this so they are recognisable in logs and secret scanners. */
const KEY_PREFIX = 'pim_';

export class ApiKeyService {
  constructor(private readonly keys: ApiKeyRepository) {}

  /** Creates a service account ("minion"); the key is returned this once and stored hashed. */
  async create(input: { userName: string; roles: string[] }): Promise<{ row: ApiKeyRow; apiKey: string }> {
    const userName = input.userName.trim();
    if (!userName) throw badRequest('An API key needs a user name.');
    const roles = input.roles.map((r) => r.trim()).filter(Boolean);
    const apiKey = KEY_PREFIX + randomToken();
    const row = await this.keys.create({
      id: randomUUID(),
      userName,
      keyHash: hashSecret(apiKey),
      keyPrefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      roles,
    });
    return { row, apiKey };
  }

  async authenticate(apiKey: string): Promise<Principal | null> {
    const row = await this.keys.findByHash(hashSecret(apiKey));
    if (!row) return null;
    if (row.disabled) throw unauthorized('This API key is disabled.');
    return { kind: 'apikey', apiKeyId: row.id, userName: row.user_name, userId: null, roles: effectiveRoles(row.roles) };
  }
}
