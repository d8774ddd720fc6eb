import type { Config } from '../config.js';
import { readMigrations } from '../platform/db/migrate.js';
import { createUser } from './accounts.js';
import { withDatabase, withServices } from './database.js';
import type { CliIO, OptionValues } from './io.js';

/** `pim migrate`: opening the database migrates it; this says what that did. */
export async function migrateCommand(config: Config, io: CliIO): Promise<number> {
  const applied = await withDatabase(config, async (_database, versions) => versions);
  const names = new Map(readMigrations().map((m) => [m.version, `${String(m.version).padStart(4, '0')}_${m.name}`]));
  io.out(
    applied.length
      ? `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.map((v) => names.get(v)).join(', ')}`
      : 'The database is up to date: no migrations to apply.',
  );
  return 0;
}

export async function createUserCommand(values: OptionValues, config: Config, io: CliIO): Promise<number> {
  const input = {
    email: String(values.email),
    name: String(values.name),
    password: values.password === undefined ? undefined : String(values.password),
    admin: values.admin === true,
  };
  const { user, generatedPassword } = await withServices(config, (services) => createUser(services, config.oidc, input));
  io.out(`Created user ${user.name} <${user.email}>${input.admin ? ' with the ADMIN role' : ''} (id ${user.id}).`);
  if (generatedPassword) io.out(`Password (shown only now): ${generatedPassword}`);
  else if (!user.password_hash) {
    io.out(`They sign in with ${config.oidc.providerName}; the account is linked by its verified email at the first sign-in.`);
  }
  return 0;
}

export async function createApiKeyCommand(values: OptionValues, config: Config, io: CliIO): Promise<number> {
  const roles = String(values.roles ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const { row, apiKey } = await withServices(config, (services) => services.apiKeys.create({ userName: String(values.user), roles }));
  io.out(`Created an API key for ${row.user_name}${row.roles.length ? ` with the roles ${row.roles.join(', ')}` : ''}.`);
  io.out(`Key (shown only now, stored hashed): ${apiKey}`);
  io.out(`Clients send it as the header "Authorization: ApiKey ${apiKey}".`);
  return 0;
}
