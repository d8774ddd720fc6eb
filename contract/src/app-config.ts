import { z } from 'zod';

/** What the web app reads at start from /pim/app-config.json: set by the server's configuration. */
export const appConfigSchema = z.object({
  apiBase: z.string().describe('prefix of every API path, e.g. /api/'),
  providerName: z.string().describe('sign-in provider: the Authorization scheme and the login button name'),
});
export type AppConfig = z.infer<typeof appConfigSchema>;
