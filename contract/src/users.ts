import { z } from 'zod';
import { namedRefSchema, typeaheadPage } from './common.js';

/** A user as the server presents it (spec part 2 §3). */
export const userSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  persistentId: z.string().nullable(),
  googleId: z.string().nullable(),
  roles: z.array(z.string()),
  avatar: z.string().nullable().describe("'elephant' selects the elephant picture"),
  disabled: z.boolean(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  deleted: z.iso.datetime().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** Suggestions the user picker shows per page (`GET pim/users/autocomplete`): live, enabled users by name or email. */
export const USER_AUTOCOMPLETE_PAGE_SIZE = 20;
export const userAutocompleteResponseSchema = typeaheadPage(namedRefSchema);
