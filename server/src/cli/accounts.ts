import type { Config } from '../config.js';
import type { UserRow } from '../modules/users/repository.js';
import { generatePassword, hashPassword } from '../platform/auth/passwords.js';
import { AppError, badRequest } from '../platform/errors.js';
import type { Services } from '../services.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@pim.local';
const MIN_PASSWORD_LENGTH = 8;

export interface NewAccount {
  email: string;
  name: string;
  password?: string | undefined;
  admin: boolean;
}

/**
 * A user made by an operator. With the embedded provider it is a local account with a password
 * (generated when none is given, and returned so it can be shown once). With an external issuer
 * and no password, the user waits for the first sign-in there, linked by verified email.
 */
export async function createUser(
  services: Services,
  oidc: Config['oidc'],
  input: NewAccount,
): Promise<{ user: UserRow; generatedPassword: string | null }> {
  if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (oidc.kind === 'external' && input.password === undefined) {
    const user = await services.users.createLocal({ email: input.email, name: input.name, passwordHash: null, admin: input.admin });
    return { user, generatedPassword: null };
  }
  const password = input.password ?? generatePassword();
  const user = await services.users.createLocal({
    email: input.email,
    name: input.name,
    passwordHash: await hashPassword(password),
    admin: input.admin,
  });
  return { user, generatedPassword: input.password === undefined ? password : null };
}

export interface BootstrappedAdmin {
  email: string;
  /** Set when it was generated now: shown this once. */
  generatedPassword: string | null;
  /** Signs in at an external issuer, linked by email. */
  external: boolean;
}

/**
 * First start: with no users at all, the admin account the configuration names, so someone can
 * sign in. With an external issuer only when PIM_ADMIN_EMAIL is set (no password: the issuer
 * checks who it is). Returns null when there was nothing to do.
 */
export async function bootstrapAdmin(services: Services, config: Config): Promise<BootstrappedAdmin | null> {
  if ((await services.users.countUsers()) > 0) return null;
  const external = config.oidc.kind === 'external';
  if (external && !config.admin.email) return null;
  const email = config.admin.email ?? DEFAULT_ADMIN_EMAIL;
  try {
    const { generatedPassword } = await createUser(services, config.oidc, {
      email,
      name: 'Administrator',
      password: config.admin.password,
      admin: true,
    });
    return { email, generatedPassword, external };
  } catch (err) {
    // Another server process starting at the same moment made it first.
    if (err instanceof AppError && err.code === 'conflict') return null;
    throw err;
  }
}

/** What `serve` prints on the first start, framed so it stands out among the log lines. */
export function adminBanner(admin: BootstrappedAdmin, config: Config): string {
  const password = admin.external
    ? `none here: signs in with ${config.oidc.providerName}, linked by this email at the first sign-in`
    : (admin.generatedPassword ?? 'the one set in PIM_ADMIN_PASSWORD');
  const lines = [
    'First start: created the administrator account',
    '',
    `  Email:    ${admin.email}`,
    `  Password: ${password}`,
    '',
    `Sign in at ${config.serverUrl}/pim/`,
    ...(admin.generatedPassword ? ['Keep this password: it is not shown again.'] : []),
  ];
  const rule = '='.repeat(Math.max(...lines.map((l) => l.length)) + 4);
  return [rule, ...lines.map((l) => (l ? `  ${l}` : '')), rule].join('\n');
}
