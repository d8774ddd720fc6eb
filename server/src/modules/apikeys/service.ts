import { randomUUID } from 'node:crypto';
import { API_KEY_ROLES, ROLE } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole } from '../../platform/auth/policy.js';
import { hashSecret, randomToken } from '../../platform/auth/tokens.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { badRequest, conflict, notFound, unauthorized } from '../../platform/errors.js';
import { effectiveRoles } from '../sessions/service.js';
import type { ApiKeyRepository, ApiKeyRow } from './repository.js';

/** Keys start with this so they are recognisable in logs and secret scanners. */
const KEY_PREFIX = 'pim_';
/** How much of a key the list shows (and stores in clear): the prefix and 8 random characters. */
const SHOWN_LENGTH = KEY_PREFIX.length + 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Roles as stored: each one of API_KEY_ROLES in its canonical spelling, once. */
function canonicalRoles(roles: readonly string[]): string[] {
  const out: string[] = [];
  for (const role of roles.map((r) => r.trim()).filter(Boolean)) {
    const known = API_KEY_ROLES.find((r) => r.toLowerCase() === role.toLowerCase());
    if (!known) throw badRequest(`"${role}" is not a role an API key can have. Choose from: ${API_KEY_ROLES.join(', ')}.`);
    if (!out.includes(known)) out.push(known);
  }
  return out;
}

/**
 * API keys: service accounts ("minions") that act with their own roles, never as a user. The key
 * is made here, returned once and stored as its SHA-256; the list shows its first characters.
 * Everything but authenticating is for administrators.
 */
export class ApiKeyService {
  /** Keys by hash, until a key changes (every request of a service account asks). */
  private readonly known: TopicCache<string, ApiKeyRow>;

  constructor(
    private readonly keys: ApiKeyRepository,
    changes: ChangeNotices,
  ) {
    this.known = new TopicCache(changes, ['auth']);
  }

  /** Creates a key (the CLI's `apikeys create` too); the whole key is in the answer this once. */
  async create(input: { userName: string; roles: readonly string[] }): Promise<{ row: ApiKeyRow; apiKey: string }> {
    const userName = input.userName.trim();
    if (!userName) throw badRequest('Enter a user name for the key.');
    const roles = canonicalRoles(input.roles);
    const apiKey = KEY_PREFIX + randomToken();
    const row = await this.keys.create({ id: randomUUID(), userName, keyHash: hashSecret(apiKey), keyPrefix: apiKey.slice(0, SHOWN_LENGTH), roles });
    return { row, apiKey };
  }

  /** `POST /pim/apikey` (admins). */
  createBy(principal: Principal | null, input: { userName: string; roles: readonly string[] }) {
    requireRole(principal, ROLE.ADMIN);
    return this.create(input);
  }

  list(principal: Principal | null): Promise<ApiKeyRow[]> {
    requireRole(principal, ROLE.ADMIN);
    return this.keys.list();
  }

  possibleRoles(principal: Principal | null): readonly string[] {
    requireRole(principal, ROLE.ADMIN);
    return API_KEY_ROLES;
  }

  /** `PUT pim/apikey/{key}/enable|disable` (admins): the key by its id, its start as the list shows it, or whole. */
  async setDisabled(principal: Principal | null, key: string, disabled: boolean): Promise<ApiKeyRow> {
    requireRole(principal, ROLE.ADMIN);
    const row = await this.find(key);
    return this.keys.setDisabled(row.id, disabled);
  }

  async authenticate(apiKey: string): Promise<Principal | null> {
    const hash = hashSecret(apiKey);
    const row = await this.known.through(hash, () => this.keys.findByHash(hash));
    if (!row) return null;
    if (row.disabled) throw unauthorized('This API key is disabled.');
    return { kind: 'apikey', apiKeyId: row.id, userName: row.user_name, userId: null, roles: effectiveRoles(row.roles) };
  }

  private async find(key: string): Promise<ApiKeyRow> {
    const given = key.trim().replace(/…$/, '');
    const missing = () => notFound(`There is no API key ${given}.`);
    if (UUID.test(given)) {
      const byId = await this.keys.findById(given.toLowerCase());
      if (!byId) throw missing();
      return byId;
    }
    const whole = await this.keys.findByHash(hashSecret(given));
    if (whole) return whole;
    const matches = given.length >= KEY_PREFIX.length + 6 ? await this.keys.findByPrefix(given.slice(0, SHOWN_LENGTH)) : [];
    const [only] = matches;
    if (matches.length > 1) throw conflict(`Several API keys start with ${given}: use the key's id instead.`);
    if (!only || !given.startsWith(only.key_prefix)) throw missing();
    return only;
  }
}
