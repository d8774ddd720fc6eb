// The baseline of the HTTP benchmarks: a bare Fastify server (no logger, no hooks) in a process of
// its own, with one route per PIM path measured that answers what PIM answers: `/list` the bytes
// of PIM's set list (JSON), `/file` the bytes of a cached tile read from disk on every request,
// as PIM reads its derivative cache. Tells the parent its port over IPC.
import fs from 'node:fs';
import Fastify from 'fastify';

const list = fs.readFileSync(process.env.BARE_LIST_FILE);
const tileFile = process.env.BARE_TILE_FILE;
const app = Fastify({ logger: false });
app.get('/list', (_req, reply) => reply.type('application/json; charset=utf-8').send(list));
app.get('/file', async (_req, reply) => reply.type('image/jpeg').send(await fs.promises.readFile(tileFile)));
await app.listen({ host: '127.0.0.1', port: 0 });
process.send({ kind: 'ready', port: app.server.address().port });
process.on('message', async (message) => {
  if (message.kind === 'close') {
    await app.close();
    process.disconnect();
  }
});
