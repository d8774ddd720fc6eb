import { z } from 'zod';
import { namedRefSchema } from './common.js';

/** What an ACL entry grants on its subject. WRITE includes READ; DELETE includes WRITE. */
export const ACL_PERMISSIONS = ['READ', 'WRITE', 'DELETE'] as const;
export type AclPermission = (typeof ACL_PERMISSIONS)[number];

/** Roles a member holds in a group; an ACL entry names the role its grant is for. */
export const GROUP_ROLES = ['MEMBER', 'EDITOR', 'ADMIN'] as const;

export const aclEntrySchema = z.object({
  uuid: z.uuid(),
  group: namedRefSchema,
  role: z.string(),
  permission: z.enum(ACL_PERMISSIONS),
});
export type AclEntry = z.infer<typeof aclEntrySchema>;

export const addAclEntryRequestSchema = z.object({
  group: z.uuid('Choose a group.'),
  role: z.string().trim().min(1, 'Choose a role.').max(100),
  permission: z.enum(ACL_PERMISSIONS, { error: 'Choose a permission: READ, WRITE or DELETE.' }),
});
export type AddAclEntryRequest = z.infer<typeof addAclEntryRequestSchema>;
