import { type AclPermission, ROLE, hasRole } from '@pim/contract';
import { type AppError, forbidden, unauthorized } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * The one place that decides who may do what. Services call it before they act; route handlers
 * never check permissions themselves. Anonymous calls get 401, calls without the role 403.
 */
export function requireSignedIn(principal: Principal | null): Principal {
  if (!principal) throw unauthorized();
  return principal;
}

/** What each permission lets its holder do with a record, for messages that say what is missing. */
const PERMISSION_VERBS: Record<AclPermission, string> = { READ: 'read', WRITE: 'change', DELETE: 'delete', ADMIN: 'manage' };

/**
 * The 403 for a caller who may read a record but lacks a higher permission on it. It says what they
 * may do and what is missing: 'You may read this image set but not change it: that needs WRITE
 * permission on it.' `where` says where the permission must be held ('on it', 'on its image').
 */
export function lacksPermission(what: string, permission: AclPermission, where = 'on it'): AppError {
  return forbidden(`You may read ${what} but not ${PERMISSION_VERBS[permission]} it: that needs ${permission} permission ${where}.`);
}

export function requireRole(principal: Principal | null, role: string): Principal {
  const p = requireSignedIn(principal);
  if (!hasRole(p.roles, role)) throw forbidden(`This needs the ${role} role.`);
  return p;
}

/**
 * Creating a record makes the caller its owner. An API key owns nothing, so only users and API
 * keys with ADMIN (whose records then have no owner, for admins to manage) may create records.
 */
export function requireCreator(principal: Principal | null): Principal {
  const p = requireSignedIn(principal);
  if (p.kind === 'apikey' && !isAdmin(p)) {
    throw forbidden('An API key owns nothing: only a user or an API key with the ADMIN role may create this.');
  }
  return p;
}

/**
 * The job calls of people (list, create, cancel, restart, download): every signed-in caller but
 * an API key with the MINION role, which is a remote worker's and only claims and runs jobs
 * through the worker calls.
 */
export function requireJobCaller(principal: Principal | null): Principal {
  const p = requireSignedIn(principal);
  if (p.kind === 'apikey' && hasRole(p.roles, ROLE.MINION)) {
    throw forbidden('An API key with the MINION role belongs to a remote worker: it claims and runs jobs through the worker calls, and may not use these.');
  }
  return p;
}

/**
 * The worker calls (claim, heartbeat, images, files, complete, fail): API keys with the MINION
 * role, which remote workers run with, and administrators (users or API keys with ADMIN), for
 * operations and tests. Everyone else is refused with what it takes.
 */
export function requireWorker(principal: Principal | null): Principal {
  const p = requireSignedIn(principal);
  if (!hasRole(p.roles, ROLE.MINION) && !isAdmin(p)) {
    throw forbidden('Only a remote worker claims and runs jobs: this needs an API key with the MINION role (pim apikeys create --user NAME --roles MINION).');
  }
  return p;
}

export function isAdmin(principal: Principal | null): boolean {
  return principal !== null && hasRole(principal.roles, ROLE.ADMIN);
}

/** Whether the caller owns a record; a record without owner (its user deleted) is no one's. */
export function owns(principal: Principal, ownerId: string | null): boolean {
  return ownerId !== null && principal.userId !== null && ownerId === principal.userId;
}

/** Admins and the owner may change or delete an owned record. */
export function mayChangeOwned(principal: Principal, record: { ownerId: string | null }): boolean {
  return isAdmin(principal) || owns(principal, record.ownerId);
}

/** Admins, the owner, and for a public record everyone signed in: the one-record form of visibilityScope without ACL grants. */
export function maySeeOwned(principal: Principal, record: { ownerId: string | null; isPublic: boolean }): boolean {
  return record.isPublic || mayChangeOwned(principal, record);
}

/** What a record says about who may act on it: its owner and whether everyone signed in may read it. */
export interface OwnedRecord {
  ownerId: string | null;
  isPublic: boolean;
}

/**
 * Whether an ACL entry grants the permission on the record to one of the user's groups (nested
 * groups included). Records without ACL entries answer false.
 */
export type AclGrantCheck = (userId: string, permission: AclPermission) => Promise<boolean>;

/**
 * May this caller perform this action on this record? The one rule for every owned record:
 * administrators (users or API keys with ADMIN) and the owner may do everything; everyone signed in
 * may read a public record; beyond that an ACL entry must grant the permission (or a higher one) to
 * one of the user's groups. API keys own nothing and are in no group: they act with their roles only.
 */
export async function mayAct(
  principal: Principal,
  permission: AclPermission,
  record: OwnedRecord,
  aclGrants: AclGrantCheck | null,
): Promise<boolean> {
  if (mayChangeOwned(principal, record)) return true;
  if (permission === 'READ' && record.isPublic) return true;
  if (principal.userId === null || aclGrants === null) return false;
  return aclGrants(principal.userId, permission);
}

/** The records of an owned kind that a caller may see. */
export type VisibilityScope =
  | { all: true }
  | { all: false; ownerId: string | null; includePublic: boolean; includeGranted: boolean };

/**
 * Admins see everything; others their own records, public ones and those an ACL entry grants to
 * one of their groups. 'Only own data' narrows any caller, admins included, to their own records.
 */
export function visibilityScope(principal: Principal, onlyOwnData: boolean): VisibilityScope {
  if (onlyOwnData) return { all: false, ownerId: principal.userId, includePublic: false, includeGranted: false };
  if (isAdmin(principal)) return { all: true };
  return { all: false, ownerId: principal.userId, includePublic: true, includeGranted: true };
}
