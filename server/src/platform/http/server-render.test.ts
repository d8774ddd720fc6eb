import fs from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { PAGE_COOKIE, SERVER_RENDER_ELEMENT_ID, serverRenderStateSchema, type ServerRenderModule } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet } from '../../test-support/upload-files.js';
import { pageRenderer, readCookies, serverRenderFile, serverRenderLoader } from './server-render.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

const dataBlock = (html: string, id: string) => new RegExp(`<script id="${id}" type="application/json">(.*?)</script>`).exec(html)?.[1];

/** The app's root element, the render's data block and the elements that ask for the app's code, as the page has them. */
function partsOf(html: string) {
  const root = /<div id="root" inert>([^]*?)<\/div><script id="pim-server-render"/.exec(html)?.[1];
  const state = dataBlock(html, SERVER_RENDER_ELEMENT_ID);
  const code = dataBlock(html, 'pim-app-code');
  return {
    root,
    state: state === undefined ? undefined : serverRenderStateSchema.parse(JSON.parse(state)),
    code: code === undefined ? undefined : (JSON.parse(code) as string),
  };
}

// The web app's server entry is what `npm run build` makes (`npm test` builds before it tests).
describe('screens drawn on the server for the user their page cookies name', () => {
  let t: TestApp;
  let ana: User;
  let ben: User;

  beforeAll(async () => {
    // Without PUBLIC_URL the links in the page follow the address it was asked at.
    t = await createTestApp({ PUBLIC_URL: undefined });
    if (!fs.existsSync(serverRenderFile(t.config.webDistDir))) throw new Error(`${serverRenderFile(t.config.webDistDir)} is missing: run \`npm run build\` first.`);
    ana = await signedInUser(t.app, { name: 'Ana' });
    ben = await signedInUser(t.app, { name: 'Ben' });
    await createSet(t.app, ana.auth, 'Charters of Évora <i>1</i>');
    await createSet(t.app, ben.auth, 'Letters kept private');
    const shared = await createSet(t.app, ben.auth, 'Registers shared with all');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: ben.auth,
      payload: { uuid: shared, imageset: 'Registers shared with all', publicDocumentImageSet: true },
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => t.close());

  const page = (cookies: Record<string, string>, url = '/pim/imagesets', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        host: 'archive.example:8080',
        cookie: Object.entries(cookies).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; '),
        ...headers,
      },
    });

  it('draws the image sets that user may read into the page, with what it was drawn with, for them alone', async () => {
    const res = await page({ [PAGE_COOKIE.token]: ana.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(res.headers.etag).toBeUndefined();
    const { root, state } = partsOf(res.body);
    expect(root).toContain('>Charters of Évora &lt;i&gt;1&lt;/i&gt;</td>');
    expect(root).toContain('>Registers shared with all</td>');
    expect(root).not.toContain('Letters kept private');
    expect(root).toContain('<h2');
    expect(root).toContain('aria-label="Profile of Ana"');
    expect(root).toMatch(/href="\/pim\/analyzeimagemanualfieldset\?uri=http%3A%2F%2Farchive\.example%3A8080%2Fapi%2Fpim%2Fimageset%2F[0-9a-f-]{36}%2Fmanifest"/);
    expect(state).toMatchObject({ url: '/pim/imagesets', token: ana.token, language: 'en', onlyOwnData: false });
    expect(JSON.stringify(state?.queries)).not.toContain('Letters kept private');
    expect(res.body).toMatch(/<html lang="en"/);
    // The app's code is asked for once the markup has painted (start-app.js puts these elements into the page), not in its head.
    expect(partsOf(res.body).code).toMatch(/^<script type="module" crossorigin src="\/pim\/assets\/index-[\w-]+\.js"><\/script>(<link rel="modulepreload" [^>]+>)+$/);
    expect(res.body).not.toMatch(/<script type="module"|<link rel="modulepreload"/);
    expect(res.body).toContain('<script defer src="/pim/start-app.js"></script></body>');
    expect((await t.app.inject({ method: 'GET', url: '/pim/start-app.js' })).statusCode).toBe(200);

    const bens = partsOf((await page({ [PAGE_COOKIE.token]: ben.token })).body);
    expect(bens.root).toContain('Letters kept private');
    expect(bens.root).not.toContain('Charters of Évora');
  });

  it("draws in the language the user chose, and only the user's own sets where they asked for that", async () => {
    const res = await page({ [PAGE_COOKIE.token]: ana.token, [PAGE_COOKIE.language]: 'nl', [PAGE_COOKIE.ownDataOnly]: 'true' }, '/pim/imagesets', {
      'accept-language': 'en-GB,en;q=0.9',
    });
    const { root, state } = partsOf(res.body);
    expect(res.body).toMatch(/<html lang="nl"/);
    expect(root).toContain('Nieuwe imageset');
    expect(root).toContain('Charters of Évora');
    expect(root).not.toContain('Registers shared with all');
    expect(state).toMatchObject({ language: 'nl', onlyOwnData: true });
    // The same choice from the browser's language, where the user made none in the app.
    expect(partsOf((await page({ [PAGE_COOKIE.token]: ana.token }, '/pim/imagesets', { 'accept-language': 'nl-NL' })).body).state?.language).toBe('nl');
  });

  it('sends the page as index.html has it without a session cookie, or for a screen drawn in the browser', async () => {
    const cases = [await page({}), await page({ [PAGE_COOKIE.token]: 'not a token; <script>' }), await page({ [PAGE_COOKIE.token]: ana.token }, '/pim/search')];
    for (const res of cases) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain(SERVER_RENDER_ELEMENT_ID);
      expect(res.body).not.toContain('Charters of Évora');
    }
  });

  it('draws nothing for a token no session has, or a session that has ended: the page asks for the code itself', async () => {
    const carl = await signedInUser(t.app, { name: 'Carl' });
    await t.app.services.sessions.end(carl.token);
    for (const token of ['no-such-session-token', carl.token]) {
      const res = await page({ [PAGE_COOKIE.token]: token });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root" inert></div>');
      expect(res.body).not.toContain(SERVER_RENDER_ELEMENT_ID);
      expect(res.body).not.toContain('start-app.js');
      expect(res.body).toMatch(/<script type="module" crossorigin src="\/pim\/assets\/index-[\w-]+\.js"><\/script>.*<\/body>/);
    }
  });

  it('sends the same page compressed, brotli or gzip, as it streams it', async () => {
    const plain = partsOf((await page({ [PAGE_COOKIE.token]: ana.token })).body);
    const br = await page({ [PAGE_COOKIE.token]: ana.token }, '/pim/imagesets', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await page({ [PAGE_COOKIE.token]: ana.token }, '/pim/imagesets', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const html of [brotliDecompressSync(br.rawPayload).toString(), gunzipSync(gzip.rawPayload).toString()]) {
      const parts = partsOf(html);
      expect(parts.root).toBe(plain.root);
      expect(html).toMatch(/<\/html>\s*$/);
    }
  });

  it('gives up on a render whose calls do not answer in time, and draws the next page all the same', async () => {
    const load = serverRenderLoader(t.config.webDistDir, t.app.log);
    const module = (await load!())!;
    const request = { url: '/pim/imagesets', config: { apiBase: '/api/', providerName: 'Google' }, token: ana.token, language: 'en', onlyOwnData: false, texts: async () => undefined };
    const hung = module.renderScreen({ ...request, fetch: () => new Promise<Response>(() => {}), timeLimitMs: 50 });
    const next = module.renderScreen({
      ...request,
      fetch: (url, init) => t.app.inject({ method: init.method as 'GET', url, headers: Object.fromEntries(new Headers(init.headers)) }).then((res) => new Response(res.rawPayload, { status: res.statusCode })),
      timeLimitMs: 60_000,
    });
    expect(await hung).toBeNull();
    expect((await next)?.html).toContain('Charters of Évora');
  });

  it('takes the page cookie as no credential for the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/pim/documentimageset', headers: { cookie: `${PAGE_COOKIE.token}=${ana.token}` } });
    expect(res.statusCode).toBe(401);
  });
});

describe('the render of a page', () => {
  it('may only read the API: any other call it makes fails, and the page goes without the screen', async () => {
    const app = Fastify({ logger: false });
    app.post('/api/pim/documentimageset/create', () => ({ created: true }));
    app.get('/api/pim/documentimageset', () => []);
    await app.ready();
    const asked: string[] = [];
    const module: ServerRenderModule = {
      rendersOnServer: () => true,
      renderScreen: async (request) => {
        asked.push((await request.fetch('/api/pim/documentimageset', { method: 'GET' })).status.toString());
        await request.fetch('/api/pim/documentimageset/create', { method: 'POST' });
        return { html: 'written', state: { url: request.url, token: request.token, language: 'en', onlyOwnData: false, queries: {} } };
      },
    };
    const render = pageRenderer(app, async () => module, { apiBase: '/api/', providerName: 'Google' }, async () => undefined);
    const req = { url: '/pim/imagesets', id: 'r1', log: app.log, headers: {}, socket: { remoteAddress: '127.0.0.1' } } as unknown as Parameters<typeof render.render>[0];
    const cookies = readCookies(`${PAGE_COOKIE.token}=abc`);
    expect(render.wants(cookies)).toBe(true);
    expect(await render.render(req, cookies, 'en')).toBeNull();
    expect(asked).toEqual(['200']);
    await app.close();
  });

  it('reads the cookies of a request as the browser sends them', () => {
    const cookies = readCookies(`a=1; ${PAGE_COOKIE.token}=x%2By; broken; bad=%E0%A4%A; ${PAGE_COOKIE.language}=nl; a=2`);
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get(PAGE_COOKIE.token)).toBe('x+y');
    expect(cookies.get(PAGE_COOKIE.language)).toBe('nl');
    expect(cookies.has('bad')).toBe(false);
    expect(readCookies(undefined).size).toBe(0);
  });
});
