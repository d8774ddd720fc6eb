import { unauthorized } from '../errors.js';
import type { Principal } from './principal.js';

export interface CredentialCheckers {
  /** The sign-in provider's name: the scheme the web app sends session tokens with. */
  providerName: string;
  session(token: string): Promise<Principal | null>;
  apiKey(key: string): Promise<Principal | null>;
}

/**
 * Turns an Authorization header into a principal: `<ProviderName> <token>` or `Bearer <token>`
 * for sessions, `ApiKey <key>` for service accounts. No header: anonymous (null). A token that
 * is unknown or expired is anonymous too, so the policy answers 401 (or getRoles 403).
 */
export function createAuthenticator(check: CredentialCheckers) {
  const sessionSchemes = new Set([check.providerName.toLowerCase(), 'bearer']);
  return async (header: string | undefined): Promise<Principal | null> => {
    if (!header) return null;
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
    if (!match) throw unauthorized(`The Authorization header must read "${check.providerName} <token>" or "ApiKey <key>".`);
    const scheme = match[1]!.toLowerCase();
    const credential = match[2]!;
    if (sessionSchemes.has(scheme)) return check.session(credential);
    if (scheme === 'apikey') return check.apiKey(credential);
    throw unauthorized(
      `Unknown authorization scheme "${match[1]}": use "${check.providerName} <token>", "Bearer <token>" or "ApiKey <key>".`,
    );
  };
}
