import { z } from 'zod';
import { namedRefSchema, typeaheadPage } from './common.js';

/**
 * The roles an administrator may give a user (`GET pim/users/possibleroles`). Every signed-in user
 * also holds AUTHENTICATED, which is never stored; access beyond that comes from ownership, public
 * records and ACL entries through groups.
 */
export const USER_ROLES = ['ADMIN'] as const;
export const userRoleListSchema = z.array(z.string());

export const USER_NAME_MAX = 255;
export const AVATAR_MAX = 100;

/** A user as the server presents it (spec part 2 §3). */
export const userSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  persistentId: z.string().nullable(),
  googleId: z.string().nullable(),
  roles: z.array(z.string()),
  avatar: z.string().nullable().describe("'elephant' selects the elephant picture"),
  pimGroups: z.array(namedRefSchema).describe('the groups the user is a member of (directly), by name'),
  primaryGroup: namedRefSchema.nullable().describe('one of pimGroups'),
  disabled: z.boolean(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  deleted: z.iso.datetime().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** `GET pim/users`: every user (admins only), by name. */
export const userListSchema = z.array(userSchema);

/** `GET pim/users/{uuid|self}`. */
export const userParams = z.object({
  uuid: z.string().refine((id) => id === 'self' || z.uuid().safeParse(id).success, "The user id must be a UUID or 'self'."),
});

/**
 * `POST pim/users/{uuid}/update`: the web app sends the user object it shows; the server takes
 * what may be edited from it (name, avatar, and for admins editing others, roles and primary group)
 * and ignores the read-only rest (email, persistentId, dates).
 */
export const updateUserRequestSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(USER_NAME_MAX, `A name can be at most ${USER_NAME_MAX} characters.`),
  avatar: z.string().trim().max(AVATAR_MAX, `An avatar value can be at most ${AVATAR_MAX} characters.`).nullable().optional(),
  roles: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
  primaryGroup: z
    .union([z.uuid('The primary group must be one of the user’s groups.'), namedRefSchema.transform((g) => g.uuid)])
    .nullable()
    .optional(),
});
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;
/** The request as the server reads it: the primary group by uuid. */
export type UpdateUserFields = z.output<typeof updateUserRequestSchema>;

/** Suggestions the user picker shows per page (`GET pim/users/autocomplete`): live, enabled users by name or email. */
export const USER_AUTOCOMPLETE_PAGE_SIZE = 20;
export const userAutocompleteResponseSchema = typeaheadPage(namedRefSchema);
