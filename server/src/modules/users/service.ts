import { randomUUID } from 'node:crypto';
import {
  hasRole,
  ROLE,
  type TypeaheadQuery,
  type UpdateUserFields,
  USER_AUTOCOMPLETE_PAGE_SIZE,
  USER_ROLES,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { isAdmin, requireRole, requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { SessionService } from '../sessions/service.js';
import type { UserRepository, UserRow, UserWithGroups } from './repository.js';

/** The canonical spelling of a user role (roles compare case-insensitively), if it is one. */
function userRoleOf(role: string): string | undefined {
  const wanted = role.trim().toLowerCase();
  return USER_ROLES.find((r) => r.toLowerCase() === wanted);
}

const lastAdmin = (name: string) =>
  conflict(`${name} is the last active administrator. Make another user an administrator first.`);

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
  ) {}

  /** `GET pim/users/self`: the signed-in user's own record. */
  async self(principal: Principal | null): Promise<UserWithGroups> {
    const caller = requireSignedIn(principal);
    if (caller.kind !== 'user') throw notFound('An API key is not a user: it has no own profile.');
    const user = await this.users.findWithGroups(caller.userId);
    if (!user) throw notFound('Your user record no longer exists.');
    return user;
  }

  /** `GET pim/users`: every live user (admins only). */
  async list(principal: Principal | null): Promise<UserWithGroups[]> {
    requireRole(principal, ROLE.ADMIN);
    return this.users.list();
  }

  /** `GET pim/users/{uuid|self}`: one's own record, or (admins) anyone's. */
  async get(principal: Principal | null, id: string): Promise<UserWithGroups> {
    const caller = requireSignedIn(principal);
    if (id === 'self' || id === caller.userId) return this.self(caller);
    if (!isAdmin(caller)) throw forbidden('Seeing other users needs the ADMIN role.');
    return this.requireUser(id);
  }

  /** `GET pim/users/possibleroles`: the roles an administrator may give a user. */
  possibleRoles(principal: Principal | null): readonly string[] {
    requireSignedIn(principal);
    return USER_ROLES;
  }

  /**
   * `POST pim/users/{uuid|self}/update`. Everyone changes their own name, avatar and primary group;
   * admins change those of others and their roles. Nobody grants themselves a role, and the last
   * active administrator keeps ADMIN.
   */
  async update(principal: Principal | null, id: string, input: UpdateUserFields): Promise<UserWithGroups> {
    const caller = requireSignedIn(principal);
    const target = id === 'self' ? await this.self(caller) : await this.requireUser(id);
    const own = target.id === caller.userId;
    if (!own && !isAdmin(caller)) throw forbidden('Changing other users needs the ADMIN role.');
    const roles = input.roles === undefined ? undefined : canonicalRoles(input.roles);
    if (roles && own && roles.some((r) => !hasRole(target.roles, r))) throw forbidden('Nobody can give themselves a role.');
    const primaryGroup = primaryGroupOf(input.primaryGroup, target);
    const losesAdmin = roles !== undefined && hasRole(target.roles, ROLE.ADMIN) && !hasRole(roles, ROLE.ADMIN);
    await this.users.transaction(async (tx) => {
      if (losesAdmin && !target.disabled) {
        await tx.lockAdmins();
        if ((await tx.countActiveAdmins()) <= 1) throw lastAdmin(target.name);
      }
      await tx.update(target.id, {
        name: input.name.trim(),
        ...(input.avatar !== undefined && { avatar: input.avatar?.trim() || null }),
        ...(roles !== undefined && { roles }),
        ...(primaryGroup !== undefined && { primaryGroupId: primaryGroup }),
      });
    });
    return this.requireUser(target.id);
  }

  /** `PUT pim/users/{uuid}/enable|disable` (admins). Disabling ends the user's sessions at once. */
  async setDisabledBy(principal: Principal | null, id: string, disabled: boolean): Promise<UserWithGroups> {
    const caller = requireRole(principal, ROLE.ADMIN);
    const target = await this.requireUser(id);
    if (disabled && target.id === caller.userId) throw badRequest('You cannot disable your own account.');
    await this.users.transaction(async (tx) => {
      if (disabled && !target.disabled && hasRole(target.roles, ROLE.ADMIN)) {
        await tx.lockAdmins();
        if ((await tx.countActiveAdmins()) <= 1) throw lastAdmin(target.name);
      }
      await tx.update(target.id, { disabled });
    });
    if (disabled) await this.sessions.endAllFor(target.id);
    return this.requireUser(target.id);
  }

  private async requireUser(id: string): Promise<UserWithGroups> {
    const user = await this.users.findWithGroups(id);
    if (!user || user.deleted_at) throw notFound(`There is no user with id ${id}.`);
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

/** Roles as stored: each one of USER_ROLES in its canonical spelling, once. */
function canonicalRoles(roles: readonly string[]): string[] {
  const out: string[] = [];
  for (const role of roles) {
    const known = userRoleOf(role);
    if (!known) throw badRequest(`"${role}" is not a role a user can have. Choose from: ${USER_ROLES.join(', ')}.`);
    if (!out.includes(known)) out.push(known);
  }
  return out;
}

/** The primary group to store: null clears it, otherwise it must be one of the user's groups; undefined leaves it. */
function primaryGroupOf(requested: string | null | undefined, user: UserWithGroups): string | null | undefined {
  if (requested === undefined || requested === null) return requested;
  if (!user.groups.some((g) => g.id === requested)) throw badRequest('The primary group must be one of the groups the user is a member of.');
  return requested;
}
