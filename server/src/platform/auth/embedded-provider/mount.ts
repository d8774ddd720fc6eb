import type { IncomingMessage } from 'node:http';
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
  issuer: string;
  serverUrl: string;
  /** The relying party's redirect URI on a public address; the app's start page on it. */
  redirectUriAt: (publicUrl: string) => string;
  appUrlAt: (publicUrl: string) => string;
  parts: EmbeddedProviderParts;
}

/**
 * Mounts oidc-provider (a Koa app) on our Fastify server under the issuer's path. It runs as
 * handler of its own paths in the onRequest phase; our interaction pages under the same path are
 * ordinary Fastify routes.
 */
export async function mountEmbeddedProvider(app: FastifyInstance, o: MountOptions): Promise<void> {
  const [clientSecret, keys] = await Promise.all([o.parts.secrets.clientSecret(), o.parts.secrets.keys()]);
  // The public address of each request the provider handles, as the hook below worked it out.
  const publicUrls = new WeakMap<IncomingMessage, string>();
  const provider = createEmbeddedProvider({
    issuer: o.issuer,
    serverUrl: o.serverUrl,
    publicUrlOf: (req) => publicUrls.get(req),
    redirectUriAt: o.redirectUriAt,
    clientSecret,
    keys,
    accounts: o.parts.accounts,
    adapter: o.parts.storage.adapterFor,
    appUrlAt: o.appUrlAt,
  });
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'embedded OpenID provider failed'));

  const mountPath = new URL(o.issuer).pathname.replace(/\/$/, '');
  const handle = provider.callback();
  const forProvider = (url: string) => {
    const path = url.split('?')[0]!;
    return (path === mountPath || path.startsWith(`${mountPath}/`)) && !path.startsWith(`${mountPath}/interaction/`);
  };
  // The provider answers its own requests in the onRequest phase, before Fastify parses any body
  // (it reads its own form posts), and only those: one prefix test per request, where a
  // middleware engine would match every request of the app against its mounts. It builds its
  // URLs (the next step of the sign-in, the callback it redirects to) from forwarded headers, so
  // it is told the address the browser reached us at (PUBLIC_URL when set), whatever the request
  // itself came with; and it finds its mount path as `originalUrl` less `url`, as under connect.
  app.addHook('onRequest', (req, reply, done) => {
    if (!forProvider(req.url)) {
      done();
      return;
    }
    const publicUrl = req.publicUrl;
    publicUrls.set(req.raw, publicUrl);
    const { host, protocol } = new URL(publicUrl);
    const raw = req.raw as IncomingMessage & { originalUrl?: string };
    raw.headers['x-forwarded-host'] = host;
    raw.headers['x-forwarded-proto'] = protocol.replace(':', '');
    raw.originalUrl = raw.url;
    const rest = req.url.slice(mountPath.length);
    raw.url = rest.startsWith('/') ? rest : `/${rest}`;
    // The provider writes the raw response: it takes the headers set so far (security, request id).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    void handle(raw, reply.raw);
  });
  await app.register(interactionRoutes, { provider, signIn: o.parts.signIn, mountPath, appUrlAt: o.appUrlAt });
}
