import type { User } from '@pim/contract';
import type { UserWithGroups } from './repository.js';

/**
 * The API shape of a user: never the password hash. The primary group is shown while the user is
 * still a member of that live group.
 */
export function presentUser(u: UserWithGroups): User {
  const primary = u.groups.find((g) => g.id === u.primary_group_id);
  return {
    uuid: u.id,
    name: u.name,
    email: u.email,
    persistentId: u.persistent_id,
    googleId: u.google_id,
    roles: u.roles,
    avatar: u.avatar,
    pimGroups: u.groups.map((g) => ({ uuid: g.id, name: g.name })),
    primaryGroup: primary ? { uuid: primary.id, name: primary.name } : null,
    disabled: u.disabled,
    created: u.created_at.toISOString(),
    updated: u.updated_at.toISOString(),
    deleted: u.deleted_at?.toISOString() ?? null,
  };
}
