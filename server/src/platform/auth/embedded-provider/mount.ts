import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import { interactionRoutes } from './interaction-routes.js';
import type { LocalAccounts, LocalSignIn } from './local-sign-in.js';
import { createEmbeddedProvider } from './provider.js';
import type { ProviderStorage } from './provider-storage.js';
import type { ProviderSecrets } from './secrets.js';

/** What the embedded provider stands on; services.ts wires it once. */
export interface EmbeddedProviderParts {
  secrets: ProviderSecrets;
  storage: ProviderStorage;
  accounts: LocalAccounts;
  signIn: LocalSignIn;
}

export interface MountOptions {
  publicUrl: string;
  issuer: string;
  redirectUri: string;
  appUrl: string;
  parts: EmbeddedProviderParts;
}

/**
 * Mounts oidc-provider (a Koa app) on our Fastify server under the issuer's path. It runs as
 * middleware in the onRequest phase, before Fastify parses any body, so the provider reads its
 * own form posts; our interaction pages under the same path are ordinary Fastify routes.
 */
export async function mountEmbeddedProvider(app: FastifyInstance, o: MountOptions): Promise<void> {
  const [clientSecret, keys] = await Promise.all([o.parts.secrets.clientSecret(), o.parts.secrets.keys()]);
  const provider = createEmbeddedProvider({
    issuer: o.issuer,
    redirectUri: o.redirectUri,
    clientSecret,
    keys,
    accounts: o.parts.accounts,
    adapter: o.parts.storage.adapterFor,
    appUrl: o.appUrl,
  });
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'embedded OpenID provider failed'));

  const mountPath = new URL(o.issuer).pathname.replace(/\/$/, '');
  const publicUrl = new URL(o.publicUrl);
  const handle = provider.callback();
  await app.register(middie);
  app.use(mountPath, (req, res, next) => {
    if (req.url?.startsWith('/interaction/')) return next();
    // Whatever host and scheme the request came with (a proxy, an in-process call), the
    // provider builds its URLs from PUBLIC_URL, the address browsers use.
    req.headers['x-forwarded-host'] = publicUrl.host;
    req.headers['x-forwarded-proto'] = publicUrl.protocol.replace(':', '');
    void handle(req, res);
  });
  await app.register(interactionRoutes, { provider, signIn: o.parts.signIn, mountPath, appUrl: o.appUrl });
}
