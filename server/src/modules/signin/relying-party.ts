import * as oidc from 'openid-client';
import { AppError, badRequest } from '../../platform/errors.js';

export interface RelyingPartySettings {
  issuer: string;
  /** Shown in messages, e.g. "Google". */
  providerName: string;
  clientId: string;
  clientSecret: () => Promise<string>;
  /**
   * The issuer is this server itself (the embedded provider): the browser is sent to it at the
   * address the browser reached us by, whatever address the issuer identifier names.
   */
  onThisServer?: boolean;
  /** How to reach the issuer; unset: the network. */
  fetch?: oidc.CustomFetch;
  /** `login` makes the issuer ask for the password every time (the embedded provider). */
  prompt?: 'login';
}

/** What we keep from the identity the issuer vouches for. */
export interface Identity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** The secrets of one sign-in under way, created at login and checked at the callback. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export const SCOPES = 'openid email profile';

/**
 * PIM as an OpenID Connect relying party (openid-client): authorization code with PKCE and a
 * nonce, against the embedded provider or any external issuer. Discovery happens on the first
 * sign-in and is kept; a failed one is retried on the next.
 */
export class RelyingParty {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(private readonly s: RelyingPartySettings) {}

  get issuer(): string {
    return this.s.issuer;
  }

  /** Where to send the browser; `redirectUri` is on the browser's `publicUrl`. */
  async authorizationUrl(checks: SignInChecks, at: { redirectUri: string; publicUrl: string }): Promise<string> {
    const config = await this.discover();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: at.redirectUri,
      scope: SCOPES,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      ...(this.s.prompt && { prompt: this.s.prompt }),
    });
    // Same path, on the browser's origin (the issuer identifier may name another).
    return this.s.onThisServer ? new URL(`${url.pathname}${url.search}`, at.publicUrl).href : url.href;
  }

  /**
   * Exchanges the code of the callback and validates the ID token (signature, nonce, audience).
   * `callbackUrl` is the redirect URI the authorization request named, with the callback's query.
   */
  async identity(callbackUrl: URL, checks: SignInChecks): Promise<Identity> {
    const config = await this.discover();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      let claims: Record<string, unknown> = tokens.claims() ?? {};
      // Some issuers (SURFconext, Keycloak by configuration) put the email only in userinfo.
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        const sub = claims.sub as string;
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, sub)), ...claims };
      }
      return toIdentity(claims);
    } catch (err) {
      throw this.explain(err);
    }
  }

  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= this.s
      .clientSecret()
      .then((secret) =>
        oidc.discovery(new URL(this.s.issuer), this.s.clientId, secret, undefined, {
          ...(this.s.fetch && { [oidc.customFetch]: this.s.fetch }),
          // Plain http only when the issuer itself is http (the embedded one without TLS, a lab setup).
          ...(new URL(this.s.issuer).protocol === 'http:' && { execute: [oidc.allowInsecureRequests] }),
        }),
      )
      .catch((err: unknown) => {
        this.configuration = undefined;
        throw new AppError(
          502,
          'sign_in_provider_unavailable',
          `The sign-in provider ${this.s.providerName} (${this.s.issuer}) cannot be reached: ${messageOf(err)}. Try again later.`,
        );
      });
    return this.configuration;
  }

  private explain(err: unknown): Error {
    if (err instanceof AppError) return err;
    if (err instanceof oidc.AuthorizationResponseError) {
      const why = err.error === 'access_denied' ? 'the sign-in was cancelled or refused' : err.error_description ?? err.error;
      return badRequest(`${this.s.providerName} did not sign you in: ${why}. Go back to PIM and log in again.`);
    }
    if (err instanceof oidc.ResponseBodyError) {
      return badRequest(
        `${this.s.providerName} refused to complete the sign-in: ${err.error_description ?? err.error}. Go back to PIM and log in again.`,
      );
    }
    return new AppError(
      502,
      'sign_in_failed',
      `The sign-in with ${this.s.providerName} could not be completed: ${messageOf(err)}. Go back to PIM and log in again.`,
    );
  }
}

function toIdentity(claims: Record<string, unknown>): Identity {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return {
    sub: String(claims.sub),
    email: text(claims.email)?.toLowerCase() ?? null,
    // Some issuers send the flag as a string.
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: text(claims.name) ?? (given || null),
  };
}

function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${message.replace(/\.$/, '')}${cause}`;
}
