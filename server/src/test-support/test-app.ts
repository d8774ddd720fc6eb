import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { type AppOptions, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import type { Principal } from '../platform/auth/principal.js';
import type { PublicLinks } from '../platform/http/public-url.js';
import { openTestDatabase } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** The links of a request to PUBLIC_URL (http://pim.test unless the test sets another). */
  links: PublicLinks;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database and a temp data dir; an env value of undefined unsets the
 * default (PUBLIC_URL). It runs no jobs unless the test gives its executors (or sets PIM_WORKER),
 * so jobs a test queues wait for what the test does with them.
 */
export async function createTestApp(env: Record<string, string | undefined> = {}, options: Pick<AppOptions, 'logStream' | 'executors'> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-test-'));
  const config = loadConfig({
    PIM_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://pim.test',
    PIM_WORKER: options.executors ? 'true' : 'false',
    ...env,
  });
  const database = await openTestDatabase();
  const app = await buildApp(config, { database, ...options });
  return {
    app,
    config,
    links: { publicUrl: config.serverUrl, apiBase: config.apiBase },
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** A signed-in user with a session, made through the same services the app uses. */
export async function signedInUser(
  app: FastifyInstance,
  opts: { admin?: boolean; name?: string } = {},
): Promise<{ userId: string; token: string; auth: { authorization: string }; principal: Principal }> {
  counter += 1;
  const name = opts.name ?? `User ${counter}`;
  const user = await app.services.users.createLocal({
    email: `user${counter}-${Date.now()}@example.org`,
    name,
    passwordHash: 'not-used-in-this-test',
    admin: opts.admin ?? false,
  });
  const token = await app.services.sessions.start(user.id);
  const principal = (await app.services.sessions.authenticate(token))!;
  return { userId: user.id, token, auth: { authorization: `Bearer ${token}` }, principal };
}

/** `app.inject` with a JSON body and the parsed JSON answer. */
export async function call(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  let json: unknown;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json: json as any, res };
}
