import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@pim/contract';

/** The compressed copies the web build writes beside each file (`x.js.br`, `x.js.gz`). */
const PRECOMPRESSED_COPY = /\.(br|gz)$/;

/**
 * Serves the built web app under /pim/: hashed assets cached for a year, everything else
 * revalidated; any /pim/... path the files do not answer gets index.html, and the app's router
 * decides (it shows 'Sorry, page not found!' for unknown paths). Each file goes as the brotli or
 * gzip copy the build made beside it when the request accepts one (`Vary: accept-encoding` on
 * every answer, so a cache keeps them apart), else as it is.
 */
export async function serveWebApp(app: FastifyInstance, distDir: string, appConfig: AppConfig): Promise<void> {
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/pim/'));
  app.get('/pim/app-config.json', { schema: { hide: true } }, (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return appConfig;
  });

  const indexHtml = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexHtml)) {
    app.log.warn({ distDir }, 'the web app is not built; /pim/ answers with a hint');
    const notBuilt = (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (or `npm start`, which builds it).');
    app.get('/pim', { schema: { hide: true } }, notBuilt);
    app.get('/pim/*', { schema: { hide: true } }, notBuilt);
    return;
  }

  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/pim/',
    wildcard: false,
    index: false,
    preCompressed: true,
    // The copies are sent in place of their file, never asked for by name.
    allowedPath: (pathName) => !PRECOMPRESSED_COPY.test(pathName),
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendApp = (req: FastifyRequest, reply: FastifyReply) => {
    // A missing file (an old asset, a removed service worker) is a 404, not the app.
    if (/\.[a-z0-9]+$/i.test(req.url.split('?')[0] ?? '')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', distDir);
  };
  app.get('/pim', { schema: { hide: true } }, sendApp);
  app.get('/pim/*', { schema: { hide: true } }, sendApp);
}
