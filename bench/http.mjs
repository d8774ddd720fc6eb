// The hot paths over HTTP, against bare Fastify measured in the same run (issue 19): the set list
// and a cached tile at 50 connections, the cached thumbnail's server time, and the idle server's
// memory, each on PGlite (the embedded default) and on a throwaway PostgreSQL 15. Run alone after
// `npm run build`: `node bench/http.mjs` (BENCH_HTTP_SECONDS, default 5 a measurement).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load } from './lib/load.mjs';
import { fmt, table } from './lib/measure.mjs';
import { onScratchPostgres } from './lib/postgres.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = 50;

/** A child process started with `fork`, and its next IPC message of a kind. */
function child(script, env) {
  const proc = fork(path.join(here, 'lib', script), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
  const next = (kind) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m.kind === 'error') reject(new Error(m.message));
        else if (m.kind === kind) resolve(m);
        else return;
        proc.off('message', onMessage);
        proc.off('exit', onExit);
      };
      const onExit = (code) => reject(new Error(`${script} ended with code ${code} before "${kind}"`));
      proc.on('message', onMessage);
      proc.on('exit', onExit);
    });
  return {
    proc,
    next,
    ask: (message) => {
      const answer = next(message.kind === 'close' ? 'closed' : message.kind);
      proc.send(message);
      return answer;
    },
    stop: async () => {
      if (proc.exitCode !== null) return;
      const ended = new Promise((resolve) => proc.once('exit', resolve));
      proc.send({ kind: 'close' });
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}

/** Runs PIM and the bare server side by side on one database and measures each path, alternating the two sides. */
async function benchOn(label, { databaseUrl, seconds, rounds }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-bench-http-'));
  const env = { PIM_BENCH_DATA_DIR: dataDir, ...(databaseUrl && { PIM_BENCH_DATABASE_URL: databaseUrl }) };
  // The first start makes the data; the measured server is started again on it, as after a restart
  // (a first start on PGlite also runs initdb, whose memory would count as the idle server's).
  const first = child('pim-server.mjs', env);
  await first.next('ready');
  await first.stop();
  const pim = child('pim-server.mjs', env);
  let bare;
  try {
    const ready = await pim.next('ready');
    bare = child('bare-server.mjs', { BARE_LIST_FILE: path.join(dataDir, 'bench-list.json'), BARE_TILE_FILE: path.join(dataDir, 'bench-tile.jpg') });
    const bareReady = await bare.next('ready');
    const pimUrl = (p) => `http://127.0.0.1:${ready.port}${p}`;
    const bareUrl = (p) => `http://127.0.0.1:${bareReady.port}${p}`;
    const auth = { authorization: `Bearer ${ready.token}` };

    const idle = await pim.ask({ kind: 'memory' });
    const pair = async (pimPath, barePath) => {
      const runs = { pim: [], bare: [] };
      await load(pimUrl(pimPath), { connections: CONNECTIONS, seconds: 1, headers: auth });
      await load(bareUrl(barePath), { connections: CONNECTIONS, seconds: 1 });
      for (let i = 0; i < rounds; i += 1) {
        runs.pim.push(await load(pimUrl(pimPath), { connections: CONNECTIONS, seconds, headers: auth }));
        runs.bare.push(await load(bareUrl(barePath), { connections: CONNECTIONS, seconds }));
      }
      const best = (list) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
      return { pim: best(runs.pim), bare: best(runs.bare) };
    };
    const list = await pair(ready.listPath, '/list');
    const tile = await pair(ready.tilePath, '/file');
    const thumbnail = await pim.ask({ kind: 'thumbnail', rounds: 3000 });
    const afterLoad = await pim.ask({ kind: 'memory' });
    return { label, list, tile, thumbnail, idle, afterLoad };
  } finally {
    await bare?.stop();
    await pim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchHttp({ seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 5), rounds = 3 } = {}) {
  const results = [await benchOn('PGlite', { seconds, rounds })];
  results.push(await onScratchPostgres((url) => benchOn('PostgreSQL', { databaseUrl: url, seconds, rounds })));

  const MB = (bytes) => fmt(bytes / 1e6, 0);
  const rows = [['', 'PIM req/s', 'bare req/s', 'PIM p99 ms', 'bare p99 ms']];
  for (const r of results) {
    rows.push([`GET pim/documentimageset, ${r.label}`, fmt(r.list.pim.perSecond, 0), fmt(r.list.bare.perSecond, 0), fmt(r.list.pim.p99, 2), fmt(r.list.bare.p99, 2)]);
    rows.push([`cached tile, ${r.label}`, fmt(r.tile.pim.perSecond, 0), fmt(r.tile.bare.perSecond, 0), fmt(r.tile.pim.p99, 2), fmt(r.tile.bare.p99, 2)]);
  }
  const server = [['', 'thumbnail ms', 'bare file ms', 'RSS idle MB', 'JS heap MB', 'RSS after load MB']];
  for (const r of results) {
    server.push([r.label, fmt(r.thumbnail.pim, 3), fmt(r.thumbnail.bare, 3), MB(r.idle.rss), MB(r.idle.heapUsed), MB(r.afterLoad.rss)]);
  }
  const targets = results.flatMap((r) => {
    const listRatio = r.list.pim.perSecond / r.list.bare.perSecond;
    const tileRatio = r.tile.pim.perSecond / r.tile.bare.perSecond;
    const listTarget = r.label === 'PGlite' ? 0.1 : 0.25;
    return [
      { name: `GET pim/documentimageset at ${CONNECTIONS} connections / bare Fastify (${r.label})`, measured: fmt(listRatio, 2), target: `≥ ${listTarget}`, ok: listRatio >= listTarget },
      { name: `cached tile at ${CONNECTIONS} connections / bare file route (${r.label})`, measured: fmt(tileRatio, 2), target: '≥ 0.8', ok: tileRatio >= 0.8 },
      { name: `cached thumbnail, server time, ms (${r.label})`, measured: fmt(r.thumbnail.pim, 3), target: '≤ 1', ok: r.thumbnail.pim <= 1 },
    ];
  });
  return {
    title: `HTTP hot paths: ${CONNECTIONS} keep-alive connections over loopback, the best of ${rounds} runs of ${seconds} s each side, alternating; PIM in its own process as \`pim serve\` runs it, bare Fastify ${'5'} in another`,
    text: `${table(rows)}\n\n${table(server)}`,
    ratios: results.flatMap((r) => [
      [`documentimageset req/s PIM / bare (${r.label})`, r.list.pim.perSecond / r.list.bare.perSecond],
      [`cached tile req/s PIM / bare (${r.label})`, r.tile.pim.perSecond / r.tile.bare.perSecond],
      [`cached thumbnail server time PIM / bare file route (${r.label})`, r.thumbnail.pim / r.thumbnail.bare],
    ]),
    targets,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchHttp();
  console.log(`${r.title}\n${r.text}\n`);
  console.log(table(r.targets.map((t) => [`  ${t.name}`, t.measured, t.target, t.ok ? 'holds' : 'MISSED'])));
}
