import { ACL_PERMISSIONS, type AclPermission } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { lacksPermission, mayAct, mayChangeOwned, requireSignedIn } from '../../platform/auth/policy.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { forbidden, notFound } from '../../platform/errors.js';
import type { AccessRepository } from './access-repository.js';

/** Who a principal is for the access caches: the same person with other roles is another key. */
function principalKey(principal: Principal | null): string {
  if (!principal) return 'anonymous';
  const who = principal.kind === 'user' ? `u:${principal.userId}` : `k:${principal.apiKeyId}`;
  return `${who}:${principal.roles.join(',')}`;
}

/**
 * Who may do what with an image set and the images and files in it, by the policy's rule (mayAct):
 * admins may do everything; the owner too; a public set may be read by every signed-in caller;
 * beyond that an ACL entry must grant the permission to one of the caller's groups. A set the caller may not even
 * read answers 404 (its existence is not disclosed); one they may read but not change, 403.
 */
export class ImageSetAccess {
  /**
   * Access granted, by principal, record and permission, until a session, role, ACL, group, set or
   * image membership changes (migration 0021's notices). Only grants are kept: what was refused is
   * asked again, so access given a moment ago works at once. A tile, thumbnail or set page asks
   * here on every request.
   */
  private readonly granted: TopicCache<string, true>;

  constructor(
    private readonly repo: AccessRepository,
    changes: ChangeNotices,
  ) {
    this.granted = new TopicCache(changes, ['auth', 'acl', 'sets', 'images']);
  }

  async may(principal: Principal, setId: string, permission: AclPermission): Promise<boolean> {
    const set = await this.repo.findSet(setId);
    if (!set || set.deleted) return false;
    return this.allows(principal, set, permission);
  }

  /** What the caller may do with a set they may read, so screens offer only what will work. */
  async permissionsOn(principal: Principal, setId: string): Promise<AclPermission[]> {
    const set = await this.repo.findSet(setId);
    if (!set || set.deleted) return [];
    const held: AclPermission[] = [];
    for (const permission of ACL_PERMISSIONS) if (await this.allows(principal, set, permission)) held.push(permission);
    return held;
  }

  /** Throws 401/404/403 unless the caller holds the permission on the set. */
  async requireSet(principal: Principal | null, setId: string, permission: AclPermission): Promise<Principal> {
    const caller = requireSignedIn(principal);
    await this.granted.through(`${principalKey(caller)}|set|${setId}|${permission}`, async () => {
      await this.checkSet(caller, setId, permission);
      return true;
    });
    return caller;
  }

  private async checkSet(caller: Principal, setId: string, permission: AclPermission): Promise<void> {
    const set = await this.repo.findSet(setId);
    if (!set || set.deleted || !(await this.allows(caller, set, 'READ'))) {
      throw notFound(`There is no image set with id ${setId}.`);
    }
    if (permission !== 'READ' && !(await this.allows(caller, set, permission))) {
      throw lacksPermission('this image set', permission);
    }
  }

  /**
   * Throws 401/404/403 unless the caller may manage the set: its owner, an admin, or a holder of
   * ADMIN permission on it through an ACL entry. Decisions that give other people access (publishing
   * the set, its ACL entries) are theirs. `action` completes the 403 message, e.g. 'change who has
   * access to it'.
   */
  async requireManager(principal: Principal | null, setId: string, action: string): Promise<Principal> {
    const caller = await this.requireSet(principal, setId, 'READ');
    const set = await this.repo.findSet(setId);
    if (set && (await this.allows(caller, set, 'ADMIN'))) return caller;
    throw forbidden(`You may read this image set but not ${action}: that needs ADMIN permission on it, or being its owner or an administrator.`);
  }

  /**
   * An image may be read by its owner, or by anyone who may read a set that holds it; changed
   * by its owner or anyone with the permission on a set that holds it.
   */
  async requireImage(principal: Principal | null, imageId: string, permission: AclPermission): Promise<Principal> {
    const caller = requireSignedIn(principal);
    await this.granted.through(`${principalKey(caller)}|image|${imageId}|${permission}`, async () => {
      await this.checkImage(caller, imageId, permission);
      return true;
    });
    return caller;
  }

  private async checkImage(caller: Principal, imageId: string, permission: AclPermission): Promise<void> {
    const image = await this.repo.findImageOwner(imageId);
    const missing = () => notFound(`There is no document image with id ${imageId}.`);
    if (!image) throw missing();
    if (mayChangeOwned(caller, image)) return;
    const sets = await this.repo.setsHoldingImage(imageId);
    let readable = false;
    for (const setId of sets) {
      if (await this.may(caller, setId, permission)) return;
      readable ||= permission !== 'READ' && (await this.may(caller, setId, 'READ'));
    }
    if (readable) throw lacksPermission('this image', permission, 'on an image set that holds it');
    throw missing();
  }

  /**
   * Reading by IIIF clients (the Image API and manifests), which viewers and public front-ends on
   * other origins call without signing in: a set that is public and published is open to them,
   * and so is every image such a set holds. Everything else as requireSet: anonymous callers 401.
   */
  async requireSetOrOpen(principal: Principal | null, setId: string): Promise<void> {
    if (principal === null) {
      const set = await this.repo.findSet(setId);
      if (set && !set.deleted && set.isPublic && set.published) return;
    }
    await this.requireSet(principal, setId, 'READ');
  }

  /** An image for IIIF clients: open when a public, published set holds it; else as requireImage. */
  async requireImageOrOpen(principal: Principal | null, imageId: string): Promise<void> {
    if (principal === null) {
      const open = await this.granted.through(`anonymous|open|${imageId}`, async () => ((await this.repo.openSetHolds(imageId)) ? true : undefined));
      if (open) return;
    }
    await this.requireImage(principal, imageId, 'READ');
  }

  private allows(caller: Principal, set: { id: string; ownerId: string | null; isPublic: boolean }, permission: AclPermission): Promise<boolean> {
    return mayAct(caller, permission, set, (userId, wanted) => this.repo.aclGrants(userId, set.id, wanted));
  }
}
