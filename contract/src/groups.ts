import { z } from 'zod';
import { namedRefSchema } from './common.js';

export const GROUP_NAME_MAX = 255;

/** A group of users (spec part 2 §3). */
export const groupSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  memberCount: z.number().int().describe('direct memberships'),
  subgroupCount: z.number().int().describe('direct subgroups'),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  deleted: z.iso.datetime().nullable(),
});
export type Group = z.infer<typeof groupSchema>;

/** `GET pim/pimgroups`: the live groups, by name. */
export const groupListSchema = z.array(groupSchema);

const groupName = z
  .string()
  .trim()
  .min(1, 'Enter a name for the group.')
  .max(GROUP_NAME_MAX, `A group name can be at most ${GROUP_NAME_MAX} characters.`);

/** `POST pim/pimgroups/create`; answers the new group. */
export const createGroupRequestSchema = z.object({ name: groupName });
export type CreateGroupRequest = z.infer<typeof createGroupRequestSchema>;

/** `POST pim/pimgroups/{uuid}/update`: renames the group (the 'Name group' field); answers the group. */
export const renameGroupRequestSchema = z.object({ name: groupName });
export type RenameGroupRequest = z.infer<typeof renameGroupRequestSchema>;

export const groupParams = z.object({ uuid: z.uuid('The group id must be a UUID.') });
/** The hierarchy calls name the group `{id}` in the spec. */
export const groupIdParams = z.object({ id: z.uuid('The group id must be a UUID.') });

/** A subgroup in the Children tree: not a leaf, it can be opened to load its own children. */
export const hierarchySubgroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  leaf: z.literal(false),
});

/** A membership in the Children tree: a leaf. */
export const hierarchyMembershipSchema = z.object({
  id: z.uuid(),
  user: z.object({ uuid: z.uuid(), name: z.string(), email: z.string().nullable(), disabled: z.boolean() }),
  role: z.string(),
  leaf: z.literal(true),
});
export type HierarchyMembership = z.infer<typeof hierarchyMembershipSchema>;

/** `GET pim/pimgroups/{uuid}/membershiphierarchy` and the answer of every hierarchy change. */
export const groupHierarchySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  subgroups: z.array(hierarchySubgroupSchema),
  memberships: z.array(hierarchyMembershipSchema),
});
export type GroupHierarchy = z.infer<typeof groupHierarchySchema>;

export const addMembershipRequestSchema = z.object({
  userId: z.uuid('Choose a user.'),
  role: z.string().trim().min(1, 'Choose a role.').max(100),
});
export type AddMembershipRequest = z.infer<typeof addMembershipRequestSchema>;

export const removeMembershipRequestSchema = z.object({ membershipId: z.uuid('The membership id must be a UUID.') });
export type RemoveMembershipRequest = z.infer<typeof removeMembershipRequestSchema>;

/** `addSubgroup` and `removeSubgroup`: the subgroup. */
export const subgroupRequestSchema = z.object({ uuid: z.uuid('Choose a group.') });
export type SubgroupRequest = z.infer<typeof subgroupRequestSchema>;

/** Re-exported for the group screens: a group as pickers show it. */
export const groupRefSchema = namedRefSchema;
