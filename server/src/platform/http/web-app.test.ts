import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPage, serveWebApp } from './web-app.js';

const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(200))});`;
const INDEX = `<!doctype html><html><head><title>PIM</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(50)}</body></html>`;
const CONFIG = { apiBase: '/api/', providerName: 'Google' };
const SCREEN_PRELOADS = {
  imagesets: { files: ['assets/image-sets-page-a1.js', 'assets/data-table-b2.js'], namespaces: ['imagesets'] },
  search: { files: ['assets/search-page-c3.js'], namespaces: ['search', 'pages'] },
};
const COMMON_TEXTS = { texts: ['locales/en/common.json'] };

/** A built web app as `vite build` leaves it: each file with the brotli and gzip copies beside it. */
function writeBuild(dir: string): void {
  fs.mkdirSync(path.join(dir, 'assets'));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, gzipSync(text));
  };
  write('index.html', INDEX);
  write('assets/app-1a2b3c.js', SCRIPT);
  fs.writeFileSync(path.join(dir, 'screen-preloads.json'), JSON.stringify(SCREEN_PRELOADS));
  for (const language of ['en', 'nl']) fs.mkdirSync(path.join(dir, 'locales', language), { recursive: true });
}

describe('serving the built web app', () => {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-web-app-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    writeBuild(distDir);
    app = Fastify({ logger: false });
    await serveWebApp(app, distDir, CONFIG);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the brotli copy to a browser that takes brotli, the gzip copy to one that takes gzip only, and the file to one that takes neither', async () => {
    const br = await get('/pim/assets/app-1a2b3c.js', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/pim/assets/app-1a2b3c.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    for (const acceptEncoding of [undefined, 'identity']) {
      const plain = await get('/pim/assets/app-1a2b3c.js', acceptEncoding);
      expect(plain.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(plain.body).toBe(SCRIPT);
    }

    for (const res of [br, gzip]) {
      expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBeLessThan(SCRIPT.length);
    }
  });

  it('says every answer varies with accept-encoding, the uncompressed one too, so a shared cache keeps them apart', async () => {
    expect((await get('/pim/assets/app-1a2b3c.js')).headers.vary).toBe('accept-encoding');
  });

  it('sends index.html with the runtime configuration in it, compressed and revalidated, for any app path, and 404 for a missing file', async () => {
    const page = appPage(INDEX, CONFIG, COMMON_TEXTS);
    for (const url of ['/pim/', '/pim/no/such/screen', '/pim/imagesetsx']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.vary, url).toBe('accept-encoding, accept-language, cookie');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(page);
    }
    expect(page).toContain(`<script id="pim-app-config" type="application/json">${JSON.stringify(CONFIG)}</script></head>`);
    expect(appPage(INDEX, CONFIG).replace(/<script id="pim-app-config"[^]*?<\/script>/, '')).toBe(INDEX);
    expect(gunzipSync((await get('/pim/', 'gzip, br;q=0')).rawPayload).toString()).toBe(page);
    const plain = await get('/pim/', 'br;q=0, gzip;q=0.0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
    expect((await get('/pim/assets/gone-9z8y7x.js', 'br')).statusCode).toBe(404);
  });

  it("asks in the page for the code and the texts of the screen the address opens, beside the app's own", async () => {
    for (const url of ['/pim/imagesets', '/pim/imagesets/', '/pim/imagesets?state=x']) {
      const html = brotliDecompressSync((await get(url, 'br')).rawPayload).toString();
      expect(html, url).toBe(appPage(INDEX, CONFIG, { files: SCREEN_PRELOADS.imagesets.files, texts: ['locales/en/common.json', 'locales/en/imagesets.json'] }));
      expect(html, url).toContain(
        '<link rel="modulepreload" crossorigin href="/pim/assets/image-sets-page-a1.js"><link rel="modulepreload" crossorigin href="/pim/assets/data-table-b2.js">' +
          '<link rel="preload" as="fetch" crossorigin href="/pim/locales/en/common.json"><link rel="preload" as="fetch" crossorigin href="/pim/locales/en/imagesets.json">',
      );
    }
    const search = (await get('/pim/search')).body;
    expect(search).toContain('href="/pim/assets/search-page-c3.js"');
    expect(search).toContain('href="/pim/locales/en/pages.json"');
    expect(search).not.toContain('image-sets-page');
    expect((await get('/pim/')).body).not.toContain('modulepreload');
    // Each page its own ETag: a browser's copy of one address is not taken for another's.
    expect((await get('/pim/search')).headers.etag).not.toBe((await get('/pim/imagesets')).headers.etag);
  });

  it("asks for the texts in the browser's language where the build has it, else in English", async () => {
    const inLanguage = (acceptLanguage: string) => app.inject({ method: 'GET', url: '/pim/search', headers: { 'accept-language': acceptLanguage } });
    for (const acceptLanguage of ['nl-NL,nl;q=0.9,en;q=0.8', 'NL']) {
      const res = await inLanguage(acceptLanguage);
      expect(res.body, acceptLanguage).toContain('href="/pim/locales/nl/common.json"');
      expect(res.body, acceptLanguage).toContain('href="/pim/locales/nl/search.json"');
      expect(res.body, acceptLanguage).not.toContain('/locales/en/');
    }
    for (const acceptLanguage of ['de-DE,nl;q=0.9', 'en-GB', '*', '']) {
      expect((await inLanguage(acceptLanguage)).body, acceptLanguage).toContain('href="/pim/locales/en/search.json"');
    }
    expect((await inLanguage('nl')).headers.etag).not.toBe((await inLanguage('en')).headers.etag);
  });

  it('serves every page without screen preloads when the build wrote none, or wrote something else', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-web-app-'));
    writeBuild(dir);
    const other = Fastify({ logger: false });
    try {
      fs.writeFileSync(path.join(dir, 'screen-preloads.json'), JSON.stringify({ imagesets: { files: ['../../etc/passwd'], namespaces: [] } }));
      await serveWebApp(other, dir, CONFIG);
      const res = await other.inject({ method: 'GET', url: '/pim/imagesets' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(appPage(INDEX, CONFIG, COMMON_TEXTS));
    } finally {
      await other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 304 to a browser that has the page already', async () => {
    const first = await get('/pim/imagesets', 'br');
    const again = await app.inject({ method: 'GET', url: '/pim/imagesets', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('puts no value of the configuration where it could end the element', () => {
    const page = appPage(INDEX, { apiBase: '/api/', providerName: '</script><script>alert(1)</script>' });
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script id="pim-app-config" type="application\/json">(.*?)<\/script>/.exec(page)?.[1] ?? '';
    expect(JSON.parse(json).providerName).toBe('</script><script>alert(1)</script>');
  });

  it('does not serve the compressed copies under their own names', async () => {
    expect((await get('/pim/assets/app-1a2b3c.js.br', 'br')).statusCode).toBe(404);
    expect((await get('/pim/assets/app-1a2b3c.js.gz')).statusCode).toBe(404);
  });
});
