import { z } from 'zod';

/**
 * The roles an API key ("minion", a service account) may hold (`GET pim/apikey/possibleroles`).
 * A key acts with these only, never as a user: it owns nothing and is in no group. ADMIN gives it
 * everything an administrator may do; MINION marks a remote worker that claims jobs from the queue.
 */
export const API_KEY_ROLES = ['ADMIN', 'MINION'] as const;
export const apiKeyRoleListSchema = z.array(z.string());

export const API_KEY_USER_NAME_MAX = 255;

/** How a key is shown after its creation: its recognisable start only. */
export const apiKeySchema = z.object({
  uuid: z.uuid(),
  userName: z.string(),
  apiKey: z.string().describe('the start of the key followed by "…"; the whole key only in the answer of its creation'),
  roles: z.array(z.string()),
  disabled: z.boolean(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `GET pim/apikey`: every key, newest first. */
export const apiKeyListSchema = z.array(apiKeySchema);

/** `POST /pim/apikey`. */
export const createApiKeyRequestSchema = z.object({
  userName: z
    .string()
    .trim()
    .min(1, 'Enter a user name for the key.')
    .max(API_KEY_USER_NAME_MAX, `A user name can be at most ${API_KEY_USER_NAME_MAX} characters.`),
  roles: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** The answer of `POST /pim/apikey`: the key with `apiKey` in full, this one time. */
export const createdApiKeySchema = apiKeySchema;

/** `PUT pim/apikey/{key}/enable|disable`: the key's id or the start of it as the table shows it. */
export const apiKeyParams = z.object({ key: z.string().trim().min(1).max(200) });
