import { randomUUID } from 'node:crypto';
import { ACL_PERMISSIONS, type AclPermission, type AddAclEntryRequest } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { GroupService } from '../groups/service.js';
import { groupRoleOf, UNKNOWN_ROLE_MESSAGE } from '../groups/service.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { AclEntryRecord, AclRepository } from './repository.js';

const GRANTING = 'change who has access to it';

/**
 * The ACL editor of an image set. Whoever may read a set may see its entries; only its owner or
 * an admin may add or remove them, since they decide who else gets in.
 */
export class AclService {
  constructor(
    private readonly entries: AclRepository,
    private readonly groups: GroupService,
    private readonly access: ImageSetAccess,
  ) {}

  async list(principal: Principal | null, subjectId: string): Promise<AclEntryRecord[]> {
    await this.access.requireSet(principal, subjectId, 'READ');
    return this.entries.listFor(subjectId);
  }

  async add(principal: Principal | null, subjectId: string, input: AddAclEntryRequest): Promise<AclEntryRecord[]> {
    await this.access.requireManager(principal, subjectId, GRANTING);
    const role = groupRoleOf(input.role);
    if (!role) throw badRequest(UNKNOWN_ROLE_MESSAGE);
    if (!(await this.groups.find(input.group))) throw badRequest(`There is no group with id ${input.group}. Choose one from the list.`);
    const added = await this.entries.add({ id: randomUUID(), subjectId, groupId: input.group, role, permission: input.permission });
    if (!added) throw conflict('This group already has this role and permission.');
    return this.entries.listFor(subjectId);
  }

  async delete(principal: Principal | null, entryId: string): Promise<void> {
    const caller = requireSignedIn(principal);
    const entry = await this.entries.findById(entryId);
    if (!entry) throw notFound(`There is no ACL entry with id ${entryId}.`);
    await this.access.requireManager(caller, entry.subjectId, GRANTING);
    await this.entries.delete(entryId);
  }

  permissions(principal: Principal | null): readonly AclPermission[] {
    requireSignedIn(principal);
    return ACL_PERMISSIONS;
  }
}
