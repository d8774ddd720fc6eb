import type { IncomingMessage } from 'node:http';
import Provider, { type Adapter, type KoaContextWithOIDC } from 'oidc-provider';
import { EMBEDDED_CLIENT_ID, EMBEDDED_SCOPES } from './client.js';
import type { LocalAccounts } from './local-sign-in.js';
import { problemPage } from './pages.js';
import type { ProviderKeys } from './secrets.js';

export interface EmbeddedProviderOptions {
  /** `${serverUrl}/oidc`: the provider is mounted on that path of our own server. */
  issuer: string;
  /** The address the browser reached us at with this request, as the mount worked it out. */
  publicUrlOf: (req: IncomingMessage) => string | undefined;
  /** PIM's redirect URI on an address: the client may use the one on the request's own address. */
  redirectUriAt: (publicUrl: string) => string;
  /** The issuer's own address (PUBLIC_URL, else http://localhost:$PORT), whose redirect URI is the registered one. */
  serverUrl: string;
  clientSecret: string;
  keys: ProviderKeys;
  accounts: LocalAccounts;
  adapter: (model: string) => Adapter;
  /** Where the "Back to PIM" link of its error page leads, on an address. */
  appUrlAt: (publicUrl: string) => string;
}

/**
 * The embedded OpenID provider: local accounts, one confidential client (PIM), authorization
 * code with PKCE (S256) only. Its sign-in page is ours (interaction-routes.ts); consent is
 * implied for PIM itself, a first-party client.
 */
export function createEmbeddedProvider(o: EmbeddedProviderOptions): Provider {
  const mountPath = new URL(o.issuer).pathname.replace(/\/$/, '');
  const publicUrlOf = (ctx: KoaContextWithOIDC) => o.publicUrlOf(ctx.req) ?? ctx.origin;
  const provider = new Provider(o.issuer, {
    adapter: o.adapter,
    clients: [
      {
        client_id: EMBEDDED_CLIENT_ID,
        client_secret: o.clientSecret,
        client_name: 'PIM',
        redirect_uris: [o.redirectUriAt(o.serverUrl)],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: o.keys.jwks,
    cookies: { keys: o.keys.cookieKeys },
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: EMBEDDED_SCOPES,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Name and email go into the ID token itself: the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // PIM signs out by ending its own session; nothing uses the provider's logout endpoint.
      rpInitiatedLogout: { enabled: false },
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    // Every sign-in is a fresh interaction (the relying party sends prompt=login), so the
    // provider's own session and grants only need to outlive one sign-in.
    ttl: {
      Interaction: 15 * 60,
      Session: 15 * 60,
      Grant: 15 * 60,
      AuthorizationCode: 60,
      AccessToken: 5 * 60,
      IdToken: 5 * 60,
    },
    // A disabled account is still found: the sign-in form refuses it, and should it be disabled
    // between form and callback, PIM's callback refuses it with a page that says why.
    findAccount: async (_ctx, sub) => {
      const account = await o.accounts.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          name: account.name,
          // Local emails are set by the operator, so the provider vouches for them.
          ...(account.email && { email: account.email, email_verified: true }),
        }),
      };
    },
    loadExistingGrant: (ctx) => grantForFirstParty(ctx),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const detail = out.error_description ?? out.error;
      ctx.body = problemPage({
        title: 'Sign-in failed',
        message: `The sign-in request could not be processed: ${detail}. Go back to PIM and log in again.`,
        backUrl: o.appUrlAt(publicUrlOf(ctx)),
      });
    },
  });
  acceptRedirectUriOfRequest(provider, (ctx) => o.redirectUriAt(publicUrlOf(ctx)));
  // Koa's notion of host and protocol comes from forwarded headers, which the mount sets to the
  // address the browser reached us at: the provider's URLs stay on it.
  provider.proxy = true;
  return provider;
}

/**
 * The client may name PIM's callback on the address the authorization request itself came to,
 * besides the registered one: a browser signing in at http://127.0.0.1:8080 or a LAN name stays
 * there. Only that one address: a code is never sent to a host the browser did not come from.
 */
function acceptRedirectUriOfRequest(provider: Provider, allowedAt: (ctx: KoaContextWithOIDC) => string): void {
  const client = provider.Client.prototype;
  const registered = client.redirectUriAllowed;
  client.redirectUriAllowed = function (this: typeof client, redirectUri: string): boolean {
    const ctx = Provider.ctx;
    return (ctx !== undefined && redirectUri === allowedAt(ctx)) || registered.call(this, redirectUri);
  };
}

/**
 * PIM is our own client: the user is never asked to consent, the grant covers what it asks for.
 * (The default implementation only reuses a grant stored earlier.)
 */
async function grantForFirstParty(ctx: KoaContextWithOIDC) {
  const { client, session, provider, result } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  const grant =
    existing?.accountId === session.accountId
      ? existing
      : new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope(EMBEDDED_SCOPES.join(' '));
  await grant.save();
  session.grantIdFor(client.clientId, grant.jti);
  return grant;
}
