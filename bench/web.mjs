// The web app's first load of /pim/imagesets, as a signed-in admin on a cold start (a fresh
// browser context: no HTTP cache, no service worker), against the built server (`npm run build`
// first) in a process of its own on PGlite in a temp dir, over loopback, in Chromium:
//
// - the JavaScript it downloads until the network is idle, per script, raw and gzipped at level 9
//   (the measure, whatever the server sends), and the bytes that actually crossed the wire
//   for every response (compressed as the server sent them);
// - its Largest Contentful Paint, read by a buffered PerformanceObserver once the list shows its
//   sets, the median of BENCH_WEB_LOADS (5) cold loads, after BENCH_WEB_WARMUP (3) loads that
//   are not counted: the server draws the screen into the page, and its first renders after a
//   start run before V8 has optimised the rendering code (printed, for what a restart costs).
//
//   node bench/web.mjs   (CHROMIUM_PATH, default /usr/bin/chromium; BENCH_WEB_LOADS;
//   BENCH_WEB_TIMELINE=1 also prints each load's requests, paints and LCP candidates, in ms from
//   navigation: where a first load waits, not part of the measure; BENCH_WEB_LATENCY_MS adds a
//   round trip that long to every request, as a distant server would, to see what waits on the network)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { fmt, quantile, table } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, '..', 'server', 'dist', 'main.js');
const SCREEN = '/pim/imagesets';
const SETS = 8;
const admin = { email: 'bench-admin@example.org', password: 'bench-admin-password' };
const JS_TARGET_KB = 200;
const LCP_TARGET_MS = 500;
/** Pages the server draws before the loads that count (BENCH_WEB_SERVER_WARMUP). */
const SERVER_WARMUP_PAGES = Number(process.env.BENCH_WEB_SERVER_WARMUP ?? 30);
/** BENCH_WEB_LATENCY_MS: a round trip this long added to every request (not part of the measure: where a distant server's first load waits). */
const LATENCY_MS = Number(process.env.BENCH_WEB_LATENCY_MS ?? 0);

/** A free loopback port: the bench may run beside the tests and other benches. */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `pim serve` on a temp data dir with an admin made by `pim users create`, as an operator starts it. */
async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-bench-web-'));
  const env = { ...process.env, PIM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.PUBLIC_URL;
  delete env.DATABASE_URL;
  const created = spawnSync(
    process.execPath,
    [main, 'users', 'create', '--email', admin.email, '--name', 'Bench Admin', '--password', admin.password, '--admin'],
    { env, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`pim users create failed: ${created.stderr || created.stdout}`);
  const server = spawn(process.execPath, [main, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  // Polled until it answers (a script, not a test: polling is fine here).
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server ended with code ${server.exitCode}`);
    if (await fetch(`${base}/pim/app-config.json`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const close = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, close };
}

/**
 * Signs in through the Login link and the provider's page, as a person does; gives the token and
 * what the browser keeps of the session (localStorage and the page cookies the app wrote).
 */
async function signIn(browser, base) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${base}/pim/`);
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const kept = await context.storageState();
  await context.close();
  return { token, kept };
}

async function createSets(base, token) {
  for (let i = 1; i <= SETS; i += 1) {
    const res = await fetch(`${base}/api/pim/documentimageset/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ imageset: `Bench set ${i}` }),
    });
    if (!res.ok) throw new Error(`create set: ${res.status} ${await res.text()}`);
  }
}

/** The page's LCP so far: the last candidate the buffered observer reports, with what it painted. */
function readLcp() {
  return new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const last = list.getEntries().at(-1);
      const element = last?.element;
      const what = element ? `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"` : '?';
      resolve({ ms: last?.startTime ?? NaN, element: what });
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

/** The load so far, in ms from navigation: when each request started and ended, the paints and every LCP candidate. */
function readTimeline() {
  return new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const ms = (value) => Math.round(value);
      const lines = performance.getEntriesByType('resource').map((e) => `${ms(e.startTime)}→${ms(e.responseEnd)} ${new URL(e.name).pathname}${new URL(e.name).search}`);
      for (const e of performance.getEntriesByType('paint')) lines.push(`${ms(e.startTime)} ${e.name}`);
      for (const e of list.getEntries()) lines.push(`${ms(e.startTime)} LCP candidate ${e.element?.tagName.toLowerCase() ?? '?'} "${(e.element?.textContent ?? '').trim().slice(0, 30)}"`);
      resolve(lines.sort((a, b) => parseInt(a, 10) - parseInt(b, 10)));
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

/** One cold load: a fresh context (no HTTP cache) with what the browser kept of an earlier sign-in. */
async function coldLoad(browser, base, kept) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 900 }, storageState: kept });
  const page = await context.newPage();
  if (LATENCY_MS > 0) {
    // Chromium adds this much to each request's round trip, as a distant server would.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 });
  }
  const responses = [];
  page.on('requestfinished', (request) => responses.push(request));
  await page.goto(`${base}${SCREEN}`, { waitUntil: 'networkidle' });
  await page.getByRole('cell', { name: `Bench set ${SETS}`, exact: true }).waitFor();
  const lcp = await page.evaluate(readLcp);
  // When the app answers the page (web/src/main.tsx's mark): drawn by it, or taken over from the server's markup.
  const shownMs = await page.evaluate(() => performance.getEntriesByName('pim-app-shown')[0]?.startTime ?? NaN);
  if (process.env.BENCH_WEB_TIMELINE) console.log(`cold load timeline, ms from navigation:\n  ${(await page.evaluate(readTimeline)).join('\n  ')}\n`);
  const rows = await Promise.all(
    responses.map(async (request) => {
      const response = await request.response();
      const sizes = await request.sizes();
      const body = request.resourceType() === 'script' && response ? await response.body() : undefined;
      return {
        name: new URL(request.url()).pathname,
        type: request.resourceType(),
        encoding: response?.headers()['content-encoding'] ?? 'identity',
        sent: sizes.responseBodySize,
        headers: sizes.responseHeadersSize,
        raw: body?.length ?? 0,
        gzip: body ? gzipSync(body, { level: 9 }).length : 0,
      };
    }),
  );
  await context.close();
  return { lcp, shownMs, rows };
}

const kB = (bytes) => fmt(bytes / 1000, 2);
const total = (rows, key) => rows.reduce((sum, row) => sum + row[key], 0);

export async function benchWeb({ loads = Number(process.env.BENCH_WEB_LOADS ?? 5), warmup = Number(process.env.BENCH_WEB_WARMUP ?? 3) } = {}) {
  if (!fs.existsSync(main)) throw new Error('The server is not built: run `npm run build` first.');
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const { token, kept } = await signIn(browser, server.base);
    await createSets(server.base, token);
    // A running server has drawn the page many times: its rendering code is optimised (V8 compiles
    // a function for speed after some runs). Pages asked for as the browser asks, not counted.
    const cookie = kept.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (let i = 0; i < SERVER_WARMUP_PAGES; i += 1) await (await fetch(`${server.base}${SCREEN}`, { headers: { cookie } })).text();
    const warmups = [];
    for (let i = 0; i < warmup; i += 1) warmups.push(await coldLoad(browser, server.base, kept));
    const runs = [];
    for (let i = 0; i < loads; i += 1) runs.push(await coldLoad(browser, server.base, kept));

    const { rows } = runs[0];
    const scripts = rows.filter((row) => row.type === 'script').sort((a, b) => b.gzip - a.gzip);
    const scriptTable = [['script', 'raw kB', 'gzip-9 kB', 'sent kB', 'sent as']];
    for (const row of scripts) scriptTable.push([`  ${row.name}`, kB(row.raw), kB(row.gzip), kB(row.sent), row.encoding]);
    scriptTable.push([`  ${scripts.length} scripts in all`, kB(total(scripts, 'raw')), kB(total(scripts, 'gzip')), kB(total(scripts, 'sent')), '']);
    const others = rows.filter((row) => row.type !== 'script');
    scriptTable.push([`  ${others.length} other responses (HTML, CSS, fonts, images, JSON)`, '', '', kB(total(others, 'sent')), '']);
    scriptTable.push([`  response headers of all ${rows.length}`, '', '', kB(total(rows, 'headers')), '']);
    scriptTable.push(['  on the wire in all', '', '', kB(total(rows, 'sent') + total(rows, 'headers')), '']);

    const lcpTable = [['cold load', 'LCP ms', 'app answers ms', 'element']];
    runs.forEach((run, i) => lcpTable.push([`  ${i + 1}`, fmt(run.lcp.ms, 0), fmt(run.shownMs, 0), run.lcp.element]));
    lcpTable.push(['  median', fmt(quantile(runs.map((run) => run.lcp.ms), 0.5), 0), fmt(quantile(runs.map((run) => run.shownMs), 0.5), 0), '']);
    const warmupLine = warmups.length ? `\n\nLCP of the ${warmups.length} loads first after the server's start (not counted): ${warmups.map((run) => fmt(run.lcp.ms, 0)).join(', ')} ms` : '';
    const lcpMedian = quantile(runs.map((run) => run.lcp.ms), 0.5);
    const jsKb = total(scripts, 'gzip') / 1000;
    return {
      title: `Web app: cold first load of ${SCREEN} as a signed-in admin with ${SETS} sets (fresh context, no cache, no service worker), loopback, Chromium; ${loads} loads after ${warmup}`,
      text: `${table(scriptTable)}\n\n${table(lcpTable)}${warmupLine}`,
      ratios: [],
      targets: [
        { name: `initial JS of ${SCREEN}, gzip kB`, measured: fmt(jsKb, 1), target: `≤ ${JS_TARGET_KB}`, ok: jsKb <= JS_TARGET_KB },
        { name: `LCP of ${SCREEN}, cold, loopback, ms`, measured: fmt(lcpMedian, 0), target: `≤ ${LCP_TARGET_MS}`, ok: lcpMedian <= LCP_TARGET_MS },
      ],
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchWeb();
  console.log(`${r.title}\n${r.text}\n`);
  console.log(table(r.targets.map((t) => [`  ${t.name}`, t.measured, t.target, t.ok ? 'holds' : 'MISSED'])));
}
