import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { brotliCompressSync, constants as zlib, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_COOKIE, SERVER_RENDER_ELEMENT_ID, type AppConfig, type ServerRender } from '@pim/contract';
import { z } from 'zod';
import { pageRenderer, readCookies, serverRenderLoader, translationFiles, type PageRenderer } from './server-render.js';

/** The compressed copies the web build writes beside each file (`x.js.br`, `x.js.gz`). */
const PRECOMPRESSED_COPY = /\.(br|gz)$/;

/**
 * Serves the built web app under /pim/: hashed assets cached for a year, everything else
 * revalidated; any /pim/... path the files do not answer gets index.html with the runtime
 * configuration in it and what the screen at that path needs first (`appPage`), and the app's router
 * decides (it shows 'Sorry, page not found!' for unknown paths). Each file goes as the brotli or
 * gzip copy the build made beside it when the request accepts one (`Vary: accept-encoding` on every
 * answer, so a cache keeps them apart), else as it is; each page as the copies made of it here at
 * its first request (`Vary: accept-encoding, accept-language, cookie`: its texts are in the user's
 * language). Where the web app draws the screen on the server and the request's page cookies name a
 * session (server-render.ts), the page comes with the screen drawn in it for that user, made for
 * this request alone and kept in no cache (`private, no-store`).
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
  const serverRender = serverRenderLoader(distDir, app.log);
  const renderPage: PageRenderer | null = serverRender && pageRenderer(app, serverRender, appConfig, translationFiles(distDir, languages));
  // One page per screen path and language (what it asks for in it), made at its first request.
  const pages = new Map<string, CompressedPage>();
  const preloadsOf = (screenPath: string, language: string | undefined) => {
    const screen = screens.get(screenPath);
    const namespaces = language ? [DEFAULT_NAMESPACE, ...(screen?.namespaces ?? [])] : [];
    return { files: screen?.files ?? [], texts: namespaces.map((ns) => `locales/${language}/${ns}.json`), language };
  };
  const pageFor = (screenPath: string, language: string | undefined): CompressedPage => {
    const key = `${screens.has(screenPath) ? screenPath : ''}\n${language ?? ''}`;
    let page = pages.get(key);
    if (!page) {
      page = compressedCopies(appPage(indexText, appConfig, preloadsOf(screenPath, language)));
      pages.set(key, page);
    }
    return page;
  };
  const sendApp = async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    // A missing file (an old asset, a removed service worker) is a 404, not the app.
    if (/\.[a-z0-9]+$/i.test(pathname)) return reply.callNotFound();
    const screenPath = pathname.replace(/^\/pim\/?/, '').replace(/\/+$/, '');
    const cookies = readCookies(req.headers.cookie);
    const language = pageLanguage(cookies.get(PAGE_COOKIE.language), req.headers['accept-language'], languages);
    reply.header('vary', 'accept-encoding, accept-language, cookie').type('text/html; charset=utf-8');
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    if (renderPage && language && screens.get(screenPath)?.serverRendered && renderPage.wants(cookies)) {
      // Drawn for this user alone, with their session in its data: kept in no cache, shared or the browser's.
      reply.header('cache-control', 'private, no-store');
      const shell = appPage(indexText, appConfig, preloadsOf(screenPath, language));
      return reply.send(streamedPage(shell, () => renderPage.render(req, cookies, language), encoding));
    }
    const page = pageFor(screenPath, language);
    reply.header('cache-control', 'no-cache').header('etag', page.etag);
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === page.etag)) {
      return reply.code(304).removeHeader('content-encoding').send();
    }
    return reply.send(page[encoding]);
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
  z.object({
    files: z.array(z.string().regex(/^assets\/[\w.~-]+\.js$/)),
    namespaces: z.array(z.string().regex(NAMESPACE)),
    /** The server draws the screen into its page for a signed-in user (server-render.ts). */
    serverRendered: z.boolean().optional(),
  }),
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
 * The language the app will start in, by the rule it applies (web/src/app/i18n.ts): the one the user
 * chose in the app (its page cookie), else the first one accept-language names where the build has
 * it, else the fallback.
 */
function pageLanguage(chosen: string | undefined, acceptLanguage: string | undefined, languages: readonly string[]): string | undefined {
  if (chosen !== undefined && languages.includes(chosen)) return chosen;
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  return languages.find((language) => first.startsWith(language)) ?? (languages.includes(FALLBACK_LANGUAGE) ? FALLBACK_LANGUAGE : undefined);
}

/** JSON for a data block in the page: `<` escaped, so no value can end the element. */
const dataBlock = (id: string, value: unknown) => `<script id="${id}" type="application/json">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * index.html with the runtime configuration in it, as a JSON data block (not a script the browser
 * runs, so the content security policy has nothing to allow): the app reads it as it starts instead
 * of asking for app-config.json first, so its first calls go out at once. With the files of the
 * screen the address opens and the translations it starts with (`page.files`, `page.texts`: paths
 * under /pim/), the page asks for them too (`modulepreload`, `preload` as the fetch the app makes),
 * beside the app's own code rather than after it has run; `page.language` is the page's `lang`.
 */
export function appPage(indexHtml: string, appConfig: AppConfig, page: { files?: readonly string[]; texts?: readonly string[]; language?: string } = {}): string {
  const links = [
    ...(page.files ?? []).map((file) => `<link rel="modulepreload" crossorigin href="/pim/${file}">`),
    ...(page.texts ?? []).map((file) => `<link rel="preload" as="fetch" crossorigin href="/pim/${file}">`),
  ].join('');
  let html = indexHtml;
  if (page.language && /^[\w-]+$/.test(page.language)) html = html.replace(/(<html\b[^>]*?\slang=")[^"]*"/, `$1${page.language}"`);
  const element = `${links}${dataBlock(APP_CONFIG_ELEMENT_ID, appConfig)}`;
  return html.includes('</head>') ? html.replace('</head>', () => `${element}</head>`) : `${element}${html}`;
}

/** The app's code as a page asks for it: its entry script and the modules it preloads (`appPage`). */
const APP_CODE = /<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>/g;
/** The id of the data block with the elements that ask for the app's code, in a page the server drew a screen into (web/public/start-app.js). */
const APP_CODE_ELEMENT_ID = 'pim-app-code';
const START_APP = '<script defer src="/pim/start-app.js"></script>';

/**
 * A page (`appPage`) in two parts: its head and the opening of its root element, which go at once,
 * and the rest. With a screen drawn on the server, its markup goes in the root element and what it
 * was drawn with in a second data block after it, which the app takes the markup over with; the
 * app's code is then asked for by start-app.js once the browser has painted that markup, since
 * fetching and compiling it meanwhile would slow the drawing and the first paint on a busy machine
 * (and the code can take the markup over only once it is there). The root element is inert until
 * the app has taken it over (or drawn the screen itself, should the server not have): until then,
 * nothing would answer a click. Without a screen drawn, the rest is the page as it is, its code
 * asked for at the end of it.
 */
export function pageParts(page: string): [head: string, rest: (rendered: ServerRender | null) => string] {
  const at = page.indexOf(EMPTY_ROOT);
  if (at < 0) return [page, () => ''];
  const code: string[] = [];
  // Inert until the app has taken it over: a click on markup nothing answers yet would be lost.
  const head = `${page.slice(0, at).replace(APP_CODE, (element) => {
    code.push(element);
    return '';
  })}<div id="root" inert>`;
  const tail = page.slice(at + EMPTY_ROOT.length);
  const end = tail.lastIndexOf('</body>');
  const [body, after] = end < 0 ? [tail, ''] : [tail.slice(0, end), tail.slice(end)];
  return [
    head,
    (rendered) =>
      rendered
        ? `${rendered.html}</div>${dataBlock(SERVER_RENDER_ELEMENT_ID, rendered.state)}${body}${dataBlock(APP_CODE_ELEMENT_ID, code.join(''))}${START_APP}${after}`
        : `</div>${body}${code.join('')}${after}`,
  ];
}

/**
 * A page whose screen is drawn for its request: its head goes first, so the browser asks for the
 * styles and the code while the server draws, and the rest once the screen is drawn (as the page has
 * it without, should that fail). Compressed as it goes, quickly rather than as small as can be. The
 * drawing starts once the head is compressed: compression runs on libuv's threads, whose result
 * would otherwise wait for the drawing to give the event loop back.
 */
function streamedPage(page: string, render: () => Promise<ServerRender | null>, encoding: Encoding): Readable {
  const [head, rest] = pageParts(page);
  const out =
    encoding === 'identity'
      ? new PassThrough()
      : encoding === 'br'
        ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
        : createGzip({ level: 6 });
  const finish = () =>
    void render().then(
      (rendered) => out.end(rest(rendered)),
      () => out.end(rest(null)),
    );
  out.write(head);
  if (out instanceof PassThrough) finish();
  else out.flush(finish);
  return out;
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
