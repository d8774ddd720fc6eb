import type { Group, GroupHierarchy, NamedRef } from '@pim/contract';
import type { GroupHierarchyRecord, GroupRecord, GroupSummary } from './repository.js';

/** A group as pickers and ACL entries show it. */
export function presentGroupRef(group: GroupRecord): NamedRef {
  return { uuid: group.id, name: group.name };
}

export function presentGroup(group: GroupSummary): Group {
  return {
    uuid: group.id,
    name: group.name,
    memberCount: group.memberCount,
    subgroupCount: group.subgroupCount,
    created: group.createdAt.toISOString(),
    updated: group.updatedAt.toISOString(),
    deleted: group.deletedAt?.toISOString() ?? null,
  };
}

/** The Children tree of the group editor: subgroups (not leaves) and memberships (leaves). */
export function presentHierarchy(h: GroupHierarchyRecord): GroupHierarchy {
  return {
    uuid: h.id,
    name: h.name,
    subgroups: h.subgroups.map((s) => ({ id: s.id, name: s.name, leaf: false as const })),
    memberships: h.memberships.map((m) => ({
      id: m.id,
      user: { uuid: m.user.id, name: m.user.name, email: m.user.email, disabled: m.user.disabled },
      role: m.role,
      leaf: true as const,
    })),
  };
}
