import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@pim/contract';
import { z } from 'zod';

/** The compressed copies the web build writes beside each file (`x.js.br`, `x.js.gz`). */
const PRECOMPRESSED_COPY = /\.(br|gz)$/;

/**
 * Serves the built web app under /pim/: hashed assets cached for a year, everything else
 * revalidated; any /pim/... path the files do not answer gets index.html with the runtime
 * configuration in it and what the screen at that path needs first (`appPage`), and the app's router
 * decides (it shows 'Sorry, page not found!' for unknown paths). Each file goes as the brotli or
 * gzip copy the build made beside it when the request accepts one (`Vary: accept-encoding` on every
 * answer, so a cache keeps them apart), else as it is; each page as the copies made of it here at
 * its first request (`Vary: accept-encoding, accept-language`: its texts are in the browser's language).
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
  const indexText = fs.readFileSync(indexHtml, 'utf8');
  const screens = readScreenPreloads(path.join(distDir, SCREEN_PRELOADS_FILE), app);
  const languages = localesOf(distDir);
  // One page per screen path and language (what it asks for in it), made at its first request.
  const pages = new Map<string, CompressedPage>();
  const pageFor = (screenPath: string, language: string | undefined): CompressedPage => {
    const screen = screens.get(screenPath);
    const key = `${screen ? screenPath : ''}\n${language ?? ''}`;
    let page = pages.get(key);
    if (!page) {
      const namespaces = language ? [DEFAULT_NAMESPACE, ...(screen?.namespaces ?? [])] : [];
      const texts = namespaces.map((ns) => `locales/${language}/${ns}.json`);
      page = compressedCopies(appPage(indexText, appConfig, { files: screen?.files ?? [], texts }));
      pages.set(key, page);
    }
    return page;
  };
  const sendApp = (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    // A missing file (an old asset, a removed service worker) is a 404, not the app.
    if (/\.[a-z0-9]+$/i.test(pathname)) return reply.callNotFound();
    const screenPath = pathname.replace(/^\/pim\/?/, '').replace(/\/+$/, '');
    const page = pageFor(screenPath, pageLanguage(req.headers['accept-language'], languages));
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, accept-language').header('etag', page.etag);
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === page.etag)) return reply.code(304).send();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').send(page[encoding]);
  };
  app.get('/pim', { schema: { hide: true } }, sendApp);
  app.get('/pim/*', { schema: { hide: true } }, sendApp);
}

/** The id of the element that carries the runtime configuration in the page (web/src/session/app-config.tsx reads it). */
export const APP_CONFIG_ELEMENT_ID = 'pim-app-config';

/** Written by the web build (web/vite-screen-preloads.ts): the files of each screen's code and its translation namespaces, by route path. */
const SCREEN_PRELOADS_FILE = 'screen-preloads.json';
const NAMESPACE = /^[\w-]+$/;
const screenPreloadsSchema = z.record(
  z.string(),
  z.object({ files: z.array(z.string().regex(/^assets\/[\w.~-]+\.js$/)), namespaces: z.array(z.string().regex(NAMESPACE)) }),
);
type ScreenPreload = z.infer<typeof screenPreloadsSchema>[string];

/** The namespace every screen's texts start from, and the language the app falls back to (web/src/i18n/translations.ts). */
const DEFAULT_NAMESPACE = 'common';
const FALLBACK_LANGUAGE = 'en';

/** The build's list of each screen's files; none (every page as index.html has it) where it is missing or unreadable. */
function readScreenPreloads(file: string, app: FastifyInstance): Map<string, ScreenPreload> {
  if (!fs.existsSync(file)) return new Map();
  try {
    return new Map(Object.entries(screenPreloadsSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))));
  } catch (error) {
    app.log.warn({ file, err: error }, 'the screen preloads of the web build are unreadable; pages go without them');
    return new Map();
  }
}

/** The languages the build has translations of (`locales/{lng}/`). */
function localesOf(distDir: string): string[] {
  const dir = path.join(distDir, 'locales');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && NAMESPACE.test(entry.name))
    .map((entry) => entry.name);
}

/**
 * The language the app will most likely start in, by the rule it applies to the browser's own
 * (web/src/app/i18n.ts): the first one accept-language names where the build has it, else the
 * fallback. A choice stored in the browser overrides it there; its texts then come a little later.
 */
function pageLanguage(acceptLanguage: string | undefined, languages: readonly string[]): string | undefined {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  return languages.find((language) => first.startsWith(language)) ?? (languages.includes(FALLBACK_LANGUAGE) ? FALLBACK_LANGUAGE : undefined);
}

/**
 * index.html with the runtime configuration in it, as a JSON data block (not a script the browser
 * runs, so the content security policy has nothing to allow): the app reads it as it starts instead
 * of asking for app-config.json first, so its first calls go out at once. `<` is escaped, so no
 * value can end the element. With the files of the screen the address opens and the translations it
 * starts with (`preload.files`, `preload.texts`: paths under /pim/), the page asks for them too
 * (`modulepreload`, `preload` as the fetch the app makes), beside the app's own code rather than
 * after it has run.
 */
export function appPage(indexHtml: string, appConfig: AppConfig, preload: { files?: readonly string[]; texts?: readonly string[] } = {}): string {
  const json = JSON.stringify(appConfig).replace(/</g, '\\u003c');
  const links = [
    ...(preload.files ?? []).map((file) => `<link rel="modulepreload" crossorigin href="/pim/${file}">`),
    ...(preload.texts ?? []).map((file) => `<link rel="preload" as="fetch" crossorigin href="/pim/${file}">`),
  ].join('');
  const element = `${links}<script id="${APP_CONFIG_ELEMENT_ID}" type="application/json">${json}</script>`;
  return indexHtml.includes('</head>') ? indexHtml.replace('</head>', `${element}</head>`) : `${element}${indexHtml}`;
}

type Encoding = 'br' | 'gzip' | 'identity';

type CompressedPage = Record<Encoding, Buffer> & { etag: string };

function compressedCopies(text: string): CompressedPage {
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(identity, { level: 9 }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
  };
}

/** brotli, else gzip, where accept-encoding takes it (a `q=0` refuses it), else the text as it is. */
function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}
