import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { randomToken } from '../tokens.js';
import type { ServerSecretRepository } from './repository.js';

export interface ProviderKeys {
  /** Private signing keys of ID tokens, published (public parts) at /oidc/jwks. */
  jwks: { keys: JWK[] };
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * The embedded provider's secrets, made on first use and kept in the database: a restart, or
 * another server process, signs and verifies with the same keys.
 */
export class ProviderSecrets {
  constructor(private readonly secrets: ServerSecretRepository) {}

  /** The secret of the `pim` client: the provider checks it, our relying party sends it. */
  clientSecret(): Promise<string> {
    return this.secrets.getOrCreate('oidc_provider.client_secret', randomToken);
  }

  async keys(): Promise<ProviderKeys> {
    const jwks = await this.secrets.getOrCreate('oidc_provider.jwks', () => JSON.stringify({ keys: [newSigningKey()] }));
    const cookieKeys = await this.secrets.getOrCreate('oidc_provider.cookie_keys', () =>
      JSON.stringify([randomBytes(32).toString('base64url')]),
    );
    return { jwks: JSON.parse(jwks) as ProviderKeys['jwks'], cookieKeys: JSON.parse(cookieKeys) as string[] };
  }
}

/** RS256 is the one algorithm every relying party must support for ID tokens. */
function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}
