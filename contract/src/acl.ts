import { z } from 'zod';
import { namedRefSchema, typeaheadPage } from './common.js';

/**
 * What an ACL entry grants on its subject, each including the ones before it: READ < WRITE < DELETE
 * < ADMIN. ADMIN also lets its holders manage the subject's ACL and publish it, as its owner may.
 */
export const ACL_PERMISSIONS = ['READ', 'WRITE', 'DELETE', 'ADMIN'] as const;
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
  permission: z.enum(ACL_PERMISSIONS, { error: 'Choose a permission: READ, WRITE, DELETE or ADMIN.' }),
});
export type AddAclEntryRequest = z.infer<typeof addAclEntryRequestSchema>;

/** `GET pim/acl/allfor/{subjectId}` and the answer of adding an entry: the subject's entries. */
export const aclEntryListSchema = z.array(aclEntrySchema);

/** `GET pim/acl/permissions`: the permissions the ACL editor offers. */
export const aclPermissionListSchema = z.array(z.enum(ACL_PERMISSIONS));

/** `GET pim/pimgroups/{id}/possibleroles`: the roles a member of the group can hold, which ACL entries name. */
export const groupRoleListSchema = z.array(z.enum(GROUP_ROLES));
export type GroupRole = (typeof GROUP_ROLES)[number];

export const aclSubjectParams = z.object({ subjectId: z.uuid('The subject id must be a UUID.') });
export const aclEntryParams = z.object({ uuid: z.uuid('The ACL entry id must be a UUID.') });

/** Suggestions the group picker shows per page (`GET pim/pimgroups/autocomplete`). */
export const GROUP_AUTOCOMPLETE_PAGE_SIZE = 20;
export const groupAutocompleteResponseSchema = typeaheadPage(namedRefSchema);
export type GroupAutocompleteResponse = z.infer<typeof groupAutocompleteResponseSchema>;
