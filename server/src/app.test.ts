import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './test-support/test-app.js';

describe('the HTTP surface', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'pim-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>PIM</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIST_DIR: webDir, BODY_LIMIT_MB: '0.01' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers unknown API routes with 404 JSON', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/pim/nothing-here' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not_found', message: 'There is no API route GET /api/pim/nothing-here.' });
  });

  it('redirects / to /pim/ and serves the app for any /pim/ path', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/pim/');
    for (const url of ['/pim/', '/pim/imagesets?state=x', '/pim/no/such/screen']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and answers missing files with 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/pim/assets/app-1a2b3c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/pim/service-worker.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('tells the web app its API base and provider name', async () => {
    const res = await call(t.app, { method: 'GET', url: '/pim/app-config.json' });
    expect(res.json).toEqual({ apiBase: '/api/', providerName: 'Google' });
  });

  it('sends security headers and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/pim/', headers: { 'x-request-id': 'trace-me-42' } });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBe('trace-me-42');
  });

  it('refuses oversized and malformed JSON bodies with clear messages', async () => {
    const big = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/create',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ imageset: 'x'.repeat(20_000) }),
    });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ message: 'The request is too large.' });
    const broken = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/create',
      headers: { 'content-type': 'application/json' },
      payload: '{"imageset": ',
    });
    expect(broken.status).toBe(400);
    expect(broken.json.message).toBe('The request body is not valid JSON.');
  });

  it('rejects an Authorization header it cannot read', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: { authorization: 'Basic' } });
    expect(res.status).toBe(401);
    const scheme = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset', headers: { authorization: 'Basic abc' } });
    expect(scheme.status).toBe(401);
    expect(scheme.json.message).toContain('Unknown authorization scheme "Basic"');
  });

  it('describes every API route in the OpenAPI document', async () => {
    const doc = (await call(t.app, { method: 'GET', url: '/api/openapi.json' })).json;
    expect(doc.openapi).toMatch(/^3\./);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    expect(t.app.apiRoutes.length).toBeGreaterThan(4);
    for (const route of t.app.apiRoutes) expect(documented, route).toContain(route);
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });
});
