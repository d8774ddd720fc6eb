import type { CustomFetch } from 'openid-client';
import type { Config } from '../../config.js';
import { EMBEDDED_CLIENT_ID } from '../../platform/auth/embedded-provider/client.js';
import type { ProviderSecrets } from '../../platform/auth/embedded-provider/secrets.js';
import { RelyingParty } from './relying-party.js';

/** Where the issuer sends the browser back to, on the address the browser reached us at; registered with every provider. */
export function redirectUriOf(publicUrl: string, apiBase: string): string {
  return `${publicUrl}${apiBase}google/callback`;
}

/** Stable, as it is in every ID token: PUBLIC_URL's, else http://localhost:$PORT's, whatever address a browser uses. */
export function embeddedIssuerOf(config: Pick<Config, 'serverUrl'>): string {
  return `${config.serverUrl}/oidc`;
}

/**
 * The relying party for the configured issuer. The embedded provider is reached in-process
 * (`issuerFetch`) when given, and asks for the password at every sign-in: after "log out" the
 * next person at the same browser must not be signed in as the previous one.
 */
export function relyingPartyFor(config: Config, secrets: ProviderSecrets, issuerFetch?: CustomFetch): RelyingParty {
  const common = { providerName: config.oidc.providerName };
  if (config.oidc.kind === 'external') {
    const { issuer, clientId, clientSecret } = config.oidc;
    return new RelyingParty({ ...common, issuer, clientId, clientSecret: async () => clientSecret });
  }
  return new RelyingParty({
    ...common,
    issuer: embeddedIssuerOf(config),
    clientId: EMBEDDED_CLIENT_ID,
    clientSecret: () => secrets.clientSecret(),
    onThisServer: true,
    ...(issuerFetch && { fetch: issuerFetch }),
    prompt: 'login',
  });
}
