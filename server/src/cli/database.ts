import type { Config } from '../config.js';
import { type Database, openDatabase } from '../platform/db/database.js';
import { migrate } from '../platform/db/migrate.js';
import { createServices, type Services } from '../services.js';

/** The configured database, open for one command: migrated first, closed afterwards. */
export async function withDatabase<T>(config: Config, work: (database: Database, applied: number[]) => Promise<T>): Promise<T> {
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    const applied = await migrate(database);
    return await work(database, applied);
  } finally {
    await database.close();
  }
}

export function withServices<T>(config: Config, work: (services: Services) => Promise<T>): Promise<T> {
  return withDatabase(config, (database) => work(createServices(database, config)));
}
