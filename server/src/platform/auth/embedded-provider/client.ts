/** The one client of the embedded provider: PIM's own relying party. */
export const EMBEDDED_CLIENT_ID = 'pim';
export const EMBEDDED_SCOPES = ['openid', 'email', 'profile'];
