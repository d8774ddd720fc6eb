import { randomUUID } from 'node:crypto';
import { GROUP_AUTOCOMPLETE_PAGE_SIZE, GROUP_ROLES, type GroupRole, ROLE, type TypeaheadQuery } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole, requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { GroupRecord, GroupRepository } from './repository.js';

const GROUP_NAME_MAX = 255;

/** The group role a given name stands for (roles compare case-insensitively), if any. */
export function groupRoleOf(role: string): GroupRole | undefined {
  const wanted = role.trim().toLowerCase();
  return GROUP_ROLES.find((r) => r.toLowerCase() === wanted);
}

export const UNKNOWN_ROLE_MESSAGE = `Choose a role: ${GROUP_ROLES.join(', ')}.`;

/**
 * Groups of users. Members hold a role; members of a sub-group count as members of the groups
 * above it. Managing groups is an administrator's task (they sit in the Admin menu); any
 * signed-in user may look groups up, to grant them access to their own image sets.
 */
export class GroupService {
  constructor(private readonly groups: GroupRepository) {}

  async create(principal: Principal | null, name: string): Promise<GroupRecord> {
    requireRole(principal, ROLE.ADMIN);
    const trimmed = name.trim();
    if (!trimmed) throw badRequest('Enter a name for the group.');
    if (trimmed.length > GROUP_NAME_MAX) throw badRequest(`A group name can be at most ${GROUP_NAME_MAX} characters.`);
    const group = { id: randomUUID(), name: trimmed };
    await this.groups.create(group);
    return group;
  }

  /** Gives the user the role in the group; holding it already is fine. */
  async addMembership(principal: Principal | null, groupId: string, input: { userId: string; role: string }): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    await this.requireGroup(groupId);
    const role = groupRoleOf(input.role);
    if (!role) throw badRequest(UNKNOWN_ROLE_MESSAGE);
    if (!(await this.groups.userExists(input.userId))) throw badRequest(`There is no user with id ${input.userId}.`);
    await this.groups.addMembership({ id: randomUUID(), groupId, userId: input.userId, role });
  }

  /** Puts `childId` under `parentId`; refuses loops (a group inside itself, however deep). */
  async addSubgroup(principal: Principal | null, parentId: string, childId: string): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    await this.requireGroup(parentId);
    await this.requireGroup(childId);
    await this.groups.transaction(async (tx) => {
      await tx.lockGroupGraph();
      if (await tx.isSelfOrAncestor(childId, parentId)) {
        throw badRequest('A group cannot contain itself or one of the groups that contain it.');
      }
      await tx.addSubgroup(parentId, childId);
    });
  }

  async autocomplete(principal: Principal | null, query: TypeaheadQuery): Promise<{ results: GroupRecord[]; pageSize: number }> {
    requireSignedIn(principal);
    const results = await this.groups.autocomplete({
      filter: query.filter.trim(),
      skip: query.skip,
      limit: GROUP_AUTOCOMPLETE_PAGE_SIZE,
    });
    return { results, pageSize: GROUP_AUTOCOMPLETE_PAGE_SIZE };
  }

  /** A live group, for other services that refer to groups (ACL entries). */
  find(groupId: string): Promise<GroupRecord | undefined> {
    return this.groups.findById(groupId);
  }

  private async requireGroup(groupId: string): Promise<GroupRecord> {
    const group = await this.groups.findById(groupId);
    if (!group) throw notFound(`There is no group with id ${groupId}.`);
    return group;
  }
}
