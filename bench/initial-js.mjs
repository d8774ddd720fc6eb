// The JavaScript a browser downloads to open a screen on a cold start (no HTTP cache, no service
// worker), as a signed-in admin: every script response until the network is idle, raw and gzipped
// (the server sends them uncompressed; a proxy in front may gzip them, as the build's report
// assumes). Run after `npm run build`:
//
//   node bench/initial-js.mjs [/pim/imagesets ...]   (BENCH_PORT, default 8787; CHROMIUM_PATH)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, '..', 'server', 'dist', 'main.js');
if (!fs.existsSync(main)) {
  console.error('The server is not built: run `npm run build` first.');
  process.exit(1);
}
const paths = process.argv.length > 2 ? process.argv.slice(2) : ['/pim/imagesets'];
const port = process.env.BENCH_PORT ?? '8787';
const base = `http://127.0.0.1:${port}`;
const admin = { email: 'bench-admin@example.org', password: 'bench-admin-password' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-initial-js-'));
const env = { ...process.env, PIM_DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
delete env.PUBLIC_URL;
const created = spawnSync(
  process.execPath,
  [main, 'users', 'create', '--email', admin.email, '--name', 'Bench Admin', '--password', admin.password, '--admin'],
  { env, encoding: 'utf8' },
);
if (created.status !== 0) {
  console.error(created.stderr || created.stdout);
  process.exit(1);
}
const server = spawn(process.execPath, [main, 'serve'], { env, stdio: 'inherit' });

/** Polls until the server answers (a script, not a test: polling is fine here). */
async function waitForServer() {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server ended with code ${server.exitCode}`);
    const ok = await fetch(`${base}/pim/app-config.json`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs in through the Login link and the provider's page, as a person does; gives the token. */
async function signIn(browser) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${base}/pim/`);
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await context.close();
  return token;
}

async function measure(browser, token, appPath) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  const scripts = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(`${base}${appPath}`, { waitUntil: 'networkidle' });
  const rows = await Promise.all(
    scripts.map(async (response) => {
      const body = await response.body();
      return { name: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
    }),
  );
  await context.close();
  return rows.sort((a, b) => b.gzip - a.gzip);
}

const kB = (bytes) => (bytes / 1000).toFixed(2).padStart(9);
try {
  await waitForServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const token = await signIn(browser);
    for (const appPath of paths) {
      const rows = await measure(browser, token, appPath);
      console.log(`\n${appPath}: ${rows.length} scripts`);
      for (const row of rows) console.log(`  ${kB(row.raw)} kB  gzip ${kB(row.gzip)} kB  ${row.name}`);
      const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
      console.log(`  ${kB(total('raw'))} kB  gzip ${kB(total('gzip'))} kB  in all`);
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
