#!/usr/bin/env node
// `npm test`: every check, in order: typecheck, lint, unit and integration tests (contract, server
// on PGlite and on a throwaway PostgreSQL server, web), then the end-to-end tests in Chromium.
import { spawnSync } from 'node:child_process';
import { ensureInstalled, root } from './install.mjs';

ensureInstalled();
const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['build', 'npm', ['run', 'build']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['end-to-end tests', 'npm', ['run', 'test:e2e']],
];

for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
