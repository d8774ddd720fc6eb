import { ROLE, hasRole } from '@pim/contract';
import { forbidden, unauthorized } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * The one place that decides who may do what. Services call it before they act; route handlers
 * never check permissions themselves. Anonymous calls get 401, calls without the role 403.
 */
export function requireSignedIn(principal: Principal | null): Principal {
  if (!principal) throw unauthorized();
  return principal;
}

export function requireRole(principal: Principal | null, role: string): Principal {
  const p = requireSignedIn(principal);
  if (!hasRole(p.roles, role)) throw forbidden(`This needs the ${role} role.`);
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
