import type { Config } from './config.js';
import type { Database } from './platform/db/database.js';
import { ApiKeyRepository } from './modules/apikeys/repository.js';
import { ApiKeyService } from './modules/apikeys/service.js';
import { ImageSetRepository } from './modules/imagesets/repository.js';
import { ImageSetService } from './modules/imagesets/service.js';
import { SessionRepository } from './modules/sessions/repository.js';
import { SessionService } from './modules/sessions/service.js';
import { UserRepository } from './modules/users/repository.js';
import { UserService } from './modules/users/service.js';

/** Every service of the server, wired to its repositories once. Routes, the CLI and tests use these. */
export function createServices(database: Database, config: Config) {
  const { db } = database;
  const sessions = new SessionService(new SessionRepository(db), config.sessionTtlHours);
  return {
    sessions,
    users: new UserService(new UserRepository(db), sessions),
    apiKeys: new ApiKeyService(new ApiKeyRepository(db)),
    imageSets: new ImageSetService(new ImageSetRepository(db)),
  };
}

export type Services = ReturnType<typeof createServices>;
