import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { mountEmbeddedProvider } from '../../platform/auth/embedded-provider/mount.js';
import type { Services } from '../../services.js';
import { embeddedIssuerOf, redirectUriOf } from './issuer.js';
import { signInRoutes } from './routes.js';

/**
 * Everything of sign-in on the server: the embedded OpenID provider under /oidc (unless an
 * external issuer is configured) and the relying party's login and callback routes.
 */
export async function registerSignIn(app: FastifyInstance, config: Config, services: Services): Promise<void> {
  if (config.oidc.kind === 'embedded') {
    await mountEmbeddedProvider(app, {
      issuer: embeddedIssuerOf(config),
      serverUrl: config.serverUrl,
      redirectUriAt: (publicUrl) => redirectUriOf(publicUrl, config.apiBase),
      appUrlAt: (publicUrl) => `${publicUrl}/pim/`,
      parts: services.embeddedProvider,
    });
  }
  await app.register(signInRoutes, { prefix: config.apiBase.replace(/\/$/, ''), signIn: services.signIn });
}
