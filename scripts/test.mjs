#!/usr/bin/env node
// `npm test`: every check, in order: typecheck, lint, build, unit and integration tests (contract,
// server on PGlite and on a throwaway PostgreSQL server, web), then the end-to-end tests in
// Chromium. Ends with one line counting every test: "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, root } from './install.mjs';

ensureInstalled();

const results = path.join(root, 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');
const playwrightJson = path.join(results, 'playwright.json');

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['build', 'npm', ['run', 'build']],
  ['unit and integration tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]],
  ['end-to-end tests', 'npm', ['run', 'test:e2e']],
];

let status = 0;
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  });
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal}).`);
    status = r.status || 1;
    break;
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);
const vitest = read(vitestJson);
if (vitest) {
  counts.passed += vitest.numPassedTests;
  counts.failed += vitest.numFailedTests;
  counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
}
const playwright = read(playwrightJson);
if (playwright) {
  counts.passed += playwright.stats.expected + playwright.stats.flaky;
  counts.failed += playwright.stats.unexpected;
  counts.skipped += playwright.stats.skipped;
}
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(status);
