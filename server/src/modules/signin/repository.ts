import type { Kysely, Selectable } from 'kysely';
import type { DB, OidcLoginStateTable } from '../../platform/db/schema.js';

export type LoginStateRow = Selectable<OidcLoginStateTable>;

export interface NewLoginState {
  state: string;
  codeVerifier: string;
  nonce: string;
  returnUrl: string;
  redirect: string | null;
  redirectUri: string;
  loginCheck: string | null;
}

/** Sign-ins under way: what the callback needs to finish one, keyed by the `state` parameter. */
export class LoginStateRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(s: NewLoginState): Promise<void> {
    await this.db
      .insertInto('oidc_login_state')
      .values({
        state: s.state,
        code_verifier: s.codeVerifier,
        nonce: s.nonce,
        return_url: s.returnUrl,
        redirect: s.redirect,
        redirect_uri: s.redirectUri,
        login_check: s.loginCheck,
      })
      .execute();
  }

  /** Removes and returns a state: each one finishes at most one sign-in. */
  take(state: string): Promise<LoginStateRow | undefined> {
    return this.db.deleteFrom('oidc_login_state').where('state', '=', state).returningAll().executeTakeFirst();
  }

  async deleteCreatedBefore(before: Date): Promise<void> {
    await this.db.deleteFrom('oidc_login_state').where('created_at', '<', before).execute();
  }
}
