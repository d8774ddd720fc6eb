import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { PAGE_COOKIE, type AppConfig, type ServerRender, type ServerRenderModule, type ServerRenderRequest } from '@pim/contract';
import { asFetchResponse } from './injected-response.js';

/** Where `vite build --ssr` writes the web app's server entry: beside the web app's own build (web/dist-server next to web/dist). */
export function serverRenderFile(distDir: string): string {
  return path.join(path.dirname(distDir), 'dist-server', 'server-render.js');
}

/**
 * The web app's server entry, loaded at its first use (a server no one opens a drawn screen of does
 * not hold it in memory), once; null where it is not built (pages then go as index.html has them)
 * or does not load (logged).
 */
export function serverRenderLoader(distDir: string, log: FastifyBaseLogger): (() => Promise<ServerRenderModule | null>) | null {
  const file = serverRenderFile(distDir);
  if (!fs.existsSync(file)) {
    log.warn({ file }, 'the web app has no server entry; pages go without the screen drawn in them');
    return null;
  }
  let loading: Promise<ServerRenderModule | null> | undefined;
  return () =>
    (loading ??= import(pathToFileURL(file).href).then(
      (loaded: Partial<ServerRenderModule>) => {
        if (typeof loaded.renderScreen === 'function' && typeof loaded.rendersOnServer === 'function') return loaded as ServerRenderModule;
        log.warn({ file }, "the web app's server entry exports no renderScreen and rendersOnServer; pages go without the screen drawn in them");
        return null;
      },
      (err: unknown) => {
        log.warn({ err, file }, "the web app's server entry did not load; pages go without the screen drawn in them");
        return null;
      },
    ));
}

/** The cookies of a request, by name (RFC 6265's `name=value; name=value`); a value that is not valid percent-encoding is left out. */
export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // Not percent-encoding: not a value the app wrote.
    }
  }
  return cookies;
}

/** How long a page's calls may take: drawn later than that, it would come no sooner than the browser draws the screen itself. */
const RENDER_TIME_LIMIT_MS = 2_000;

/** A session token as the sign-in issues them; anything else in the cookie is not looked up. */
const TOKEN = /^[\w.~+/=-]{1,200}$/;

export interface PageRenderer {
  /** Whether the request's cookies carry a session token a screen could be drawn for. */
  wants(cookies: Map<string, string>): boolean;
  /** The screen drawn for that session; null where it cannot be (the session refused, a call failed, the render threw: logged). */
  render(req: FastifyRequest, cookies: Map<string, string>, language: string): Promise<ServerRender | null>;
}

/**
 * Draws the screen of a page request for the user its page cookies name (contract/src/page-render.ts),
 * where the web app renders that screen on the server: the calls the screen opens with are answered
 * by this server in its own process (`app.inject`, with the token as the Authorization header, so
 * the API's own rules decide what the page shows). A render only reads: it may make no call but a
 * GET and the role check.
 */
export function pageRenderer(
  app: FastifyInstance,
  load: () => Promise<ServerRenderModule | null>,
  appConfig: AppConfig,
  texts: ServerRenderRequest['texts'],
): PageRenderer {
  const roleCheck = `${appConfig.apiBase}google/getRoles`;
  const tokenOf = (cookies: Map<string, string>) => {
    const token = cookies.get(PAGE_COOKIE.token);
    return token && TOKEN.test(token) ? token : null;
  };
  const wants: PageRenderer['wants'] = (cookies) => tokenOf(cookies) !== null;
  const render: PageRenderer['render'] = async (req, cookies, language) => {
    const token = tokenOf(cookies);
    const module = token === null ? null : await load();
    if (token === null || !module?.rendersOnServer(req.url.split('?')[0] ?? '')) return null;
    const fetchInProcess: ServerRenderRequest['fetch'] = async (url, init) => {
      const method = (init.method ?? 'GET').toUpperCase();
      if (!url.startsWith(appConfig.apiBase) || !(method === 'GET' || (method === 'POST' && url === roleCheck))) {
        throw new Error(`A page's render asked for ${method} ${url}: it may only read the API.`);
      }
      const res = await app.inject({
        method: method as HTTPMethods,
        url,
        // As the page's own request reached us (its address, through the same proxy), so the links
        // in the answers (a set's manifest, its images) are those the browser's calls would get.
        headers: { ...addressOf(req), ...Object.fromEntries(new Headers(init.headers)), 'x-request-id': req.id },
        remoteAddress: req.socket.remoteAddress,
      });
      return asFetchResponse(res);
    };
    try {
      return await module.renderScreen({
        url: req.url,
        config: appConfig,
        token,
        language,
        onlyOwnData: cookies.get(PAGE_COOKIE.ownDataOnly) === 'true',
        texts,
        fetch: fetchInProcess,
        timeLimitMs: RENDER_TIME_LIMIT_MS,
      });
    } catch (err) {
      req.log.warn({ err }, 'the screen could not be drawn on the server; the page goes without it');
      return null;
    }
  };
  return { wants, render };
}

/** The headers that say where a request reached the server: Fastify's `host` and `protocol` read them (forwarded ones from a trusted proxy only). */
const ADDRESS_HEADERS = ['host', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

function addressOf(req: FastifyRequest): Record<string, string> {
  return Object.fromEntries(ADDRESS_HEADERS.flatMap((name) => (typeof req.headers[name] === 'string' ? [[name, req.headers[name]]] : [])));
}

/** The build's translation files (`locales/{language}/{namespace}.json`), read once each. */
export function translationFiles(distDir: string, languages: readonly string[]): ServerRenderRequest['texts'] {
  const read = new Map<string, Promise<Record<string, unknown> | undefined>>();
  return (language, namespace) => {
    if (!languages.includes(language) || !/^[\w-]+$/.test(namespace)) return Promise.resolve(undefined);
    const key = `${language}/${namespace}`;
    let texts = read.get(key);
    if (!texts) {
      texts = fs.promises
        .readFile(path.join(distDir, 'locales', language, `${namespace}.json`), 'utf8')
        .then((text) => JSON.parse(text) as Record<string, unknown>)
        .catch(() => undefined);
      read.set(key, texts);
    }
    return texts;
  };
}
