import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSrc = fileURLToPath(new URL('./contract/src/index.ts', import.meta.url));
const resolve = { alias: { '@pim/contract': contractSrc } };
const server = (name: string, db: 'pglite' | 'postgres') => ({
  resolve,
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    env: { PIM_TEST_DB: db },
    // Limits that end a hung test, not measures of speed: a busy 2-core machine runs slowly.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A worker keeps the server's modules loaded from one test file to the next (importing them
    // anew for each file was a third of the run). The server tests mock no modules and each builds
    // its own app on its own database, so nothing a file leaves behind is read by the next.
    // The web tests stay isolated: their module mocks (OpenSeadragon, FilePond) must not leak.
    isolate: false,
    ...(db === 'postgres' && { globalSetup: ['src/test-support/pg-cluster.ts'] }),
  },
});

/** Unit and integration tests: contract, server on PGlite and on PostgreSQL, web in jsdom. */
export default defineConfig({
  test: {
    // Vitest's default, a worker per core but one, is a single worker on 2 cores; much of a test's
    // time is waiting (databases, files, threads), so two workers finish about a quarter sooner.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { resolve, test: { name: 'contract', root: './contract', include: ['src/**/*.test.ts'] } },
      server('server:pglite', 'pglite'),
      server('server:postgres', 'postgres'),
      ...(existsSync('./web/vite.config.ts') ? ['./web/vite.config.ts'] : []),
    ],
  },
});
