import type { User } from '@pim/contract';
import type { UserRow } from './repository.js';

/** The API shape of a user: never the password hash. */
export function presentUser(u: UserRow): User {
  return {
    uuid: u.id,
    name: u.name,
    email: u.email,
    persistentId: u.persistent_id,
    googleId: u.google_id,
    roles: u.roles,
    avatar: u.avatar,
    disabled: u.disabled,
    created: u.created_at.toISOString(),
    updated: u.updated_at.toISOString(),
    deleted: u.deleted_at?.toISOString() ?? null,
  };
}
