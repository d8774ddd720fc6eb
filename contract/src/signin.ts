import { z } from 'zod';

/**
 * What the sign-in provider sends the browser back with to `GET google/callback` (OpenID
 * Connect authorization response). Providers add their own parameters (Google: `scope`,
 * `authuser`, `prompt`), which are kept.
 */
export const signInCallbackQuerySchema = z.looseObject({
  code: z.string().max(4096).optional().describe('authorization code to exchange'),
  state: z.string().max(512).optional().describe('the state the login redirect created'),
  iss: z.string().max(2048).optional().describe("the issuer's identifier (RFC 9207)"),
  error: z.string().max(256).optional().describe('set when the provider did not sign the user in'),
  error_description: z.string().max(2048).optional(),
});
export type SignInCallbackQuery = z.infer<typeof signInCallbackQuerySchema>;
