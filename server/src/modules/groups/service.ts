import { randomUUID } from 'node:crypto';
import {
  type AddMembershipRequest,
  GROUP_AUTOCOMPLETE_PAGE_SIZE,
  GROUP_ROLES,
  type GroupRole,
  ROLE,
  type TypeaheadQuery,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole, requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { GroupHierarchyRecord, GroupRecord, GroupRepository, GroupSummary } from './repository.js';

/** The group role a given name stands for (roles compare case-insensitively), if any. */
export function groupRoleOf(role: string): GroupRole | undefined {
  const wanted = role.trim().toLowerCase();
  return GROUP_ROLES.find((r) => r.toLowerCase() === wanted);
}

export const UNKNOWN_ROLE_MESSAGE = `Choose a role: ${GROUP_ROLES.join(', ')}.`;

/**
 * Groups of users. Members hold a role; members of a sub-group count as members of the groups
 * above it. Managing groups is an administrator's task (they sit in the Admin menu); any signed-in
 * user may look groups and their roles up, to grant them access to their own image sets.
 */
export class GroupService {
  constructor(private readonly groups: GroupRepository) {}

  async list(principal: Principal | null): Promise<GroupSummary[]> {
    requireRole(principal, ROLE.ADMIN);
    return this.groups.list();
  }

  /** `POST pim/pimgroups/create`; the name is checked by the contract's schema on the way in, and again here for other callers. */
  async create(principal: Principal | null, name: string): Promise<GroupRecord> {
    requireRole(principal, ROLE.ADMIN);
    const group = { id: randomUUID(), name: checkedName(name) };
    await this.groups.create(group);
    return group;
  }

  async summary(groupId: string): Promise<GroupSummary> {
    const [group] = await this.groups.list(groupId);
    if (!group) throw missing(groupId);
    return group;
  }

  async rename(principal: Principal | null, groupId: string, name: string): Promise<GroupSummary> {
    requireRole(principal, ROLE.ADMIN);
    await this.requireGroup(groupId);
    await this.groups.rename(groupId, checkedName(name));
    return this.summary(groupId);
  }

  async delete(principal: Principal | null, groupId: string): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    await this.requireGroup(groupId);
    await this.groups.softDelete(groupId);
  }

  async hierarchy(principal: Principal | null, groupId: string): Promise<GroupHierarchyRecord> {
    requireRole(principal, ROLE.ADMIN);
    return this.groups.hierarchy(await this.requireGroup(groupId));
  }

  /** Gives the user the role in the group; a second, different role is fine, the same one twice is not. */
  async addMembership(principal: Principal | null, groupId: string, input: AddMembershipRequest): Promise<GroupHierarchyRecord> {
    requireRole(principal, ROLE.ADMIN);
    const role = groupRoleOf(input.role);
    if (!role) throw badRequest(UNKNOWN_ROLE_MESSAGE);
    return this.change(groupId, async (tx, group) => {
      if (!(await tx.liveUserExists(input.userId))) throw badRequest(`There is no user with id ${input.userId}. Choose one from the list.`);
      const added = await tx.addMembership({ id: randomUUID(), groupId: group.id, userId: input.userId, role });
      if (!added) throw conflict('This user already has this role in the group.');
    });
  }

  async removeMembership(principal: Principal | null, groupId: string, membershipId: string): Promise<GroupHierarchyRecord> {
    requireRole(principal, ROLE.ADMIN);
    return this.change(groupId, async (tx, group) => {
      if (!(await tx.removeMembership(group.id, membershipId))) {
        throw notFound(`The group ${group.name} has no membership with id ${membershipId}.`);
      }
    });
  }

  /** Puts `childId` under `parentId`; refuses loops (a group inside itself, however deep). */
  async addSubgroup(principal: Principal | null, parentId: string, childId: string): Promise<GroupHierarchyRecord> {
    requireRole(principal, ROLE.ADMIN);
    return this.change(parentId, async (tx, parent) => {
      const child = await tx.findById(childId);
      if (!child) throw notFound(`There is no group with id ${childId}.`);
      await tx.lockGroupGraph();
      if (await tx.isSelfOrAncestor(childId, parentId)) {
        throw badRequest('A group cannot contain itself or one of the groups that contain it.');
      }
      if (!(await tx.addSubgroup(parentId, childId))) throw conflict(`${child.name} is a subgroup of ${parent.name} already.`);
    });
  }

  async removeSubgroup(principal: Principal | null, parentId: string, childId: string): Promise<GroupHierarchyRecord> {
    requireRole(principal, ROLE.ADMIN);
    return this.change(parentId, async (tx, parent) => {
      if (!(await tx.removeSubgroup(parentId, childId))) throw notFound(`The group ${parent.name} has no subgroup with id ${childId}.`);
    });
  }

  /** The group picker of the ACL editor: every signed-in user. */
  async autocomplete(principal: Principal | null, query: TypeaheadQuery): Promise<{ results: GroupRecord[]; pageSize: number }> {
    requireSignedIn(principal);
    return this.page(query);
  }

  /** The subgroup picker of the group editor: the groups that may become a subgroup of `groupId`. */
  async subgroupCandidates(
    principal: Principal | null,
    groupId: string,
    query: TypeaheadQuery,
  ): Promise<{ results: GroupRecord[]; pageSize: number }> {
    requireRole(principal, ROLE.ADMIN);
    await this.requireGroup(groupId);
    return this.page(query, groupId);
  }

  /** `GET pim/pimgroups/{id}/possibleroles`: the roles a member of the group can hold, which ACL entries name. */
  async possibleRoles(principal: Principal | null, groupId: string): Promise<readonly GroupRole[]> {
    requireSignedIn(principal);
    await this.requireGroup(groupId);
    return GROUP_ROLES;
  }

  /** A live group, for other services that refer to groups (ACL entries). */
  find(groupId: string): Promise<GroupRecord | undefined> {
    return this.groups.findById(groupId);
  }

  private async page(query: TypeaheadQuery, subgroupsOf?: string) {
    const results = await this.groups.autocomplete({ filter: query.filter.trim(), skip: query.skip, limit: GROUP_AUTOCOMPLETE_PAGE_SIZE, subgroupsOf });
    return { results, pageSize: GROUP_AUTOCOMPLETE_PAGE_SIZE };
  }

  /** One change to a group's hierarchy in a transaction; answers the hierarchy as it is after it. */
  private change(groupId: string, work: (tx: GroupRepository, group: GroupRecord) => Promise<void>): Promise<GroupHierarchyRecord> {
    return this.groups.transaction(async (tx) => {
      const group = await tx.findById(groupId);
      if (!group) throw missing(groupId);
      await work(tx, group);
      await tx.touch(group.id);
      return tx.hierarchy(group);
    });
  }

  private async requireGroup(groupId: string): Promise<GroupRecord> {
    const group = await this.groups.findById(groupId);
    if (!group) throw missing(groupId);
    return group;
  }
}

const GROUP_NAME_MAX = 255;

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('Enter a name for the group.');
  if (trimmed.length > GROUP_NAME_MAX) throw badRequest(`A group name can be at most ${GROUP_NAME_MAX} characters.`);
  return trimmed;
}

const missing = (groupId: string) => notFound(`There is no group with id ${groupId}.`);
