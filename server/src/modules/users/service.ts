import { randomUUID } from 'node:crypto';
import { ROLE, type TypeaheadQuery, USER_AUTOCOMPLETE_PAGE_SIZE } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { SessionService } from '../sessions/service.js';
import type { UserRepository, UserRow } from './repository.js';

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
  ) {}

  /** `GET pim/users/self`: the signed-in user's own record. */
  async self(principal: Principal | null): Promise<UserRow> {
    const caller = requireSignedIn(principal);
    if (caller.kind !== 'user') throw notFound('An API key is not a user: it has no own profile.');
    const user = await this.users.findById(caller.userId);
    if (!user) throw notFound('Your user record no longer exists.');
    return user;
  }

  /**
   * `GET pim/users/autocomplete`: the user picker (e.g. a pimuser field) of every signed-in caller.
   * It matches on email too, but answers only ids and names: addresses are not everyone's to see.
   */
  async autocomplete(principal: Principal | null, query: TypeaheadQuery): Promise<{ results: { id: string; name: string }[]; pageSize: number }> {
    requireSignedIn(principal);
    const results = await this.users.autocomplete({ filter: query.filter.trim(), skip: query.skip, limit: USER_AUTOCOMPLETE_PAGE_SIZE });
    return { results, pageSize: USER_AUTOCOMPLETE_PAGE_SIZE };
  }

  /**
   * A user an operator creates (CLI, first start). With a password hash it is a local account of the
   * embedded provider, its own subject there (persistentId = its id). Without one it waits for its
   * first sign-in at an external issuer, which links it by verified email.
   */
  async createLocal(input: { email: string; name: string; passwordHash: string | null; admin: boolean }): Promise<UserRow> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw badRequest(`"${input.email}" is not an email address.`);
    const name = input.name.trim() || (input.passwordHash === null ? email : '');
    if (!name) throw badRequest('A user needs a name.');
    if (await this.users.findByEmail(email)) throw conflict(`A user with email ${email} exists already.`);
    const id = randomUUID();
    return this.users.create({
      id,
      name,
      email,
      persistentId: input.passwordHash === null ? null : id,
      passwordHash: input.passwordHash,
      roles: input.admin ? [ROLE.ADMIN] : [],
    });
  }

  async setDisabled(userId: string, disabled: boolean): Promise<UserRow> {
    const user = await this.users.update(userId, { disabled });
    if (disabled) await this.sessions.endAllFor(userId);
    return user;
  }

  countUsers(): Promise<number> {
    return this.users.count();
  }
}
