// The built PIM server in a process of its own, as `pim serve` runs it (its log at the configured
// level into a file, the built-in worker on), for the HTTP benchmarks. Started with `fork` by
// bench/http.mjs; `PIM_BENCH_DATABASE_URL` picks PostgreSQL, else PGlite in the data dir. The first
// start on a data dir makes a user with `PIM_BENCH_SETS` sets and one uploaded image with one tile
// and its thumbnail cached, and notes them in the data dir; a later start finds them there, as a
// server restarted on its data does. It listens on a free loopback port and tells the parent over
// IPC. The parent can then ask it to time the cached thumbnail in-process (`thumbnail`) and for its
// memory (`memory`).
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../server/dist/app.js';
import { loadConfig } from '../../server/dist/config.js';
import { multipartBody } from './app.mjs';
import { quantile, scanLikeJpegs } from './measure.mjs';

const dataDir = process.env.PIM_BENCH_DATA_DIR;
const sets = Number(process.env.PIM_BENCH_SETS ?? 20);
const config = loadConfig({
  PIM_DATA_DIR: dataDir,
  PUBLIC_URL: 'http://pim.bench',
  ...(process.env.PIM_BENCH_DATABASE_URL && { DATABASE_URL: process.env.PIM_BENCH_DATABASE_URL }),
  ...(process.env.PIM_BENCH_LOG_LEVEL && { LOG_LEVEL: process.env.PIM_BENCH_LOG_LEVEL }),
});
const app = await buildApp(config);
const prepared = path.join(dataDir, 'bench-prepared.json');
const { token, imageId } = fs.existsSync(prepared) ? JSON.parse(fs.readFileSync(prepared, 'utf8')) : await prepare();
const auth = { authorization: `Bearer ${token}` };
const tilePath = `/iiif/3/${imageId}/0,0,512,512/512,/0/default.jpg`;
const thumbnailPath = `/api/pim/documentimage/${imageId}/thumbnail`;

async function prepare() {
  const user = await app.services.users.createLocal({ email: 'bench@example.org', name: 'Bench', passwordHash: 'not-used-in-the-bench', admin: false });
  const token = await app.services.sessions.start(user.id);
  const auth = { authorization: `Bearer ${token}` };
  const call = async (method, url, payload, headers = {}) => {
    const res = await app.inject({ method, url, headers: { ...auth, ...headers }, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res;
  };
  const setIds = [];
  for (let i = 0; i < sets; i += 1) {
    setIds.push((await call('POST', '/api/pim/documentimageset/create', { imageset: `Bench set ${String(i + 1).padStart(2, '0')}` })).json().uuid);
  }
  const [page] = await scanLikeJpegs(1, 2400, 1800);
  const { payload, headers } = multipartBody('bench-page.jpg', page);
  const imageId = (await call('POST', `/api/pim/documentimageset/postfile?dataSetId=${setIds[0]}`, payload, headers)).json().documentImages[0].uuid;
  const get = async (url) => (await call('GET', url.replace('IMAGE', imageId))).rawPayload;
  fs.writeFileSync(path.join(dataDir, 'bench-tile.jpg'), await get('/iiif/3/IMAGE/0,0,512,512/512,/0/default.jpg'));
  fs.writeFileSync(path.join(dataDir, 'bench-thumbnail.jpg'), await get('/api/pim/documentimage/IMAGE/thumbnail'));
  fs.writeFileSync(path.join(dataDir, 'bench-list.json'), await get('/api/pim/documentimageset'));
  fs.writeFileSync(prepared, JSON.stringify({ token, imageId }));
  return { token, imageId };
}

await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address();

/** The cached thumbnail through the whole app, in-process (no network), against a bare Fastify route sending the same file read from disk. */
async function timeThumbnail(rounds) {
  const bare = Fastify({ logger: false });
  const file = path.join(dataDir, 'bench-thumbnail.jpg');
  bare.get('/thumbnail', async (_req, reply) => reply.type('image/jpeg').send(await fs.promises.readFile(file)));
  await bare.ready();
  const pim = [];
  const plain = [];
  const time = async (inject, into) => {
    const started = performance.now();
    const res = await inject();
    into.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`thumbnail: ${res.statusCode}`);
  };
  for (let i = 0; i < rounds; i += 1) {
    await time(() => app.inject({ method: 'GET', url: thumbnailPath, headers: auth }), pim);
    await time(() => bare.inject({ method: 'GET', url: '/thumbnail' }), plain);
  }
  await bare.close();
  // The first fifth warms both up.
  const measured = (ms) => ms.slice(Math.floor(rounds / 5));
  return { pim: quantile(measured(pim), 0.5), bare: quantile(measured(plain), 0.5) };
}

process.on('message', async (message) => {
  try {
    if (message.kind === 'thumbnail') process.send({ kind: 'thumbnail', ...(await timeThumbnail(message.rounds)) });
    else if (message.kind === 'memory') {
      globalThis.gc?.();
      process.send({ kind: 'memory', ...process.memoryUsage() });
    } else if (message.kind === 'close') {
      await app.close();
      process.send({ kind: 'closed' });
      process.disconnect();
    }
  } catch (err) {
    process.send({ kind: 'error', message: err.stack ?? String(err) });
  }
});
process.send({ kind: 'ready', port, token, imageId, tilePath, thumbnailPath, listPath: '/api/pim/documentimageset' });
