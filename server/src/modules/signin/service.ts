import { randomUUID } from 'node:crypto';
import { isSafeRedirect, LOGIN_CHECK_PARAM, type LoginQuery } from '@pim/contract';
import * as oidc from 'openid-client';
import { SIGN_IN_MESSAGES } from '../../platform/auth/embedded-provider/local-sign-in.js';
import { badRequest, conflict, forbidden } from '../../platform/errors.js';
import type { SessionService } from '../sessions/service.js';
import type { UserRepository, UserRow } from '../users/repository.js';
import type { LoginStateRepository } from './repository.js';
import { redirectUriOf } from './issuer.js';
import type { Identity, RelyingParty } from './relying-party.js';

/** How long a sign-in may take between the login redirect and the callback. */
const STATE_TTL_MS = 15 * 60_000;

export interface SignInServiceDeps {
  states: LoginStateRepository;
  users: UserRepository;
  sessions: SessionService;
  relyingParty: RelyingParty;
  /** Where the API lives under every address we are reached at (the callback is in it). */
  apiBase: string;
  now?: () => Date;
}

/**
 * Sign-in through OpenID Connect: `google/login` starts it, `google/callback` finishes it by
 * matching (or creating) the user and starting a PIM session.
 */
export class SignInService {
  private readonly now: () => Date;

  constructor(private readonly d: SignInServiceDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /**
   * The issuer's authorization URL to send the browser to. The whole sign-in stays on
   * `publicUrl`, the address the browser reached us at: the callback is there, and returnURL
   * must be on it.
   */
  async begin(query: LoginQuery, publicUrl: string): Promise<string> {
    const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const redirectUri = redirectUriOf(publicUrl, this.d.apiBase);
    const url = await this.d.relyingParty.authorizationUrl(checks, { redirectUri, publicUrl });
    await this.d.states.deleteCreatedBefore(new Date(this.now().getTime() - STATE_TTL_MS));
    await this.d.states.create({
      ...checks,
      returnUrl: ownUrl(query.returnURL, publicUrl),
      redirect: isSafeRedirect(query.redirect) ? query.redirect : null,
      redirectUri,
      loginCheck: query.loginCheck ?? null,
    });
    return url;
  }

  /**
   * Finishes a sign-in from the query of the callback; returns where the browser goes: returnURL
   * with `gsid` (and `redirect`, and the login check the Login link brought).
   */
  async finish(callbackQuery: string): Promise<string> {
    const state = new URLSearchParams(callbackQuery).get('state');
    const saved = state ? await this.d.states.take(state) : undefined;
    if (!saved || saved.created_at.getTime() < this.now().getTime() - STATE_TTL_MS) {
      throw badRequest('This sign-in is unknown, has expired or was completed already. Go back to PIM and log in again.');
    }
    // The code exchange names the redirect URI the authorization request named.
    const callbackUrl = new URL(saved.redirect_uri);
    callbackUrl.search = callbackQuery;
    const identity = await this.d.relyingParty.identity(callbackUrl, {
      state: saved.state,
      nonce: saved.nonce,
      codeVerifier: saved.code_verifier,
    });
    const user = await this.userFor(identity);
    if (user.disabled || user.deleted_at) throw forbidden(SIGN_IN_MESSAGES.disabled);
    const token = await this.d.sessions.start(user.id);
    const landing = new URL(saved.return_url);
    landing.searchParams.set('gsid', token);
    if (saved.redirect) landing.searchParams.set('redirect', saved.redirect);
    if (saved.login_check) landing.searchParams.set(LOGIN_CHECK_PARAM, saved.login_check);
    return landing.href;
  }

  /** The issuer's subject first; then a verified email links an existing user; else a new user. */
  private async userFor(identity: Identity): Promise<UserRow> {
    const googleId = new URL(this.d.relyingParty.issuer).host === 'accounts.google.com' ? identity.sub : undefined;
    const known = await this.d.users.findByPersistentId(identity.sub);
    if (known) return googleId && known.google_id !== googleId ? this.d.users.update(known.id, { googleId }) : known;

    const sameEmail = identity.email ? await this.d.users.findByEmail(identity.email) : undefined;
    if (sameEmail && identity.emailVerified) {
      return this.d.users.update(sameEmail.id, { persistentId: identity.sub, ...(googleId && { googleId }) });
    }
    if (sameEmail) {
      throw conflict(
        `A PIM account with the email ${identity.email} exists, but the sign-in provider has not verified that this email is yours. Ask an administrator.`,
      );
    }
    try {
      return await this.d.users.create({
        id: randomUUID(),
        name: identity.name ?? identity.email ?? 'New user',
        email: identity.email,
        persistentId: identity.sub,
        googleId: googleId ?? null,
      });
    } catch (err) {
      // Two first sign-ins of one person at once: the other one created the user.
      const created = await this.d.users.findByPersistentId(identity.sub);
      if (created) return created;
      throw err;
    }
  }
}

/** Only absolute http(s) URLs on the origin of our public address; anything else returns to the app's start page. */
function ownUrl(returnURL: string | undefined, publicUrl: string): string {
  return isOnOrigin(returnURL, new URL(publicUrl).origin) ? returnURL : `${publicUrl}/pim/`;
}

function isOnOrigin(candidate: string | undefined, origin: string): candidate is string {
  if (!candidate) return false;
  try {
    const url = new URL(candidate);
    return url.origin === origin && (url.protocol === 'http:' || url.protocol === 'https:');
  } catch {
    return false;
  }
}
