import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../platform/http/log-serializers.js';
import { call, createTestApp, type TestApp } from '../../test-support/test-app.js';
import { localUser, signIn, TestBrowser } from '../../test-support/test-browser.js';

describe('session tokens stay out of the log', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    const log = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log });
  });
  afterAll(() => t.close());

  it('logs a real sign-in, its landing page and a logout without the token, and says where redirects went', async () => {
    const user = await localUser(t.app);
    const { landing, gsid } = await signIn(t.app, user);
    await new TestBrowser(t.app).open(`${landing.pathname}${landing.search}`);
    const other = await signIn(t.app, user);
    expect((await call(t.app, { method: 'DELETE', url: `/api/google/${other.gsid}` })).status).toBe(204);

    const log = lines.join('\n');
    for (const token of [gsid, other.gsid]) expect(log).not.toContain(token);
    const entries = lines.map((line) => JSON.parse(line) as { req?: { url: string }; res?: { statusCode: number; location?: string } });
    const urls = entries.flatMap((e) => (e.req ? [e.req.url] : []));
    expect(urls).toContain('/pim/?gsid=[redacted]');
    expect(urls).toContain('/api/google/[redacted]');
    expect(urls.some((url) => /^\/api\/google\/callback\?code=\[redacted\]&state=/.test(url))).toBe(true);
    const locations = entries.flatMap((e) => (e.res?.location ? [e.res.location] : []));
    expect(locations).toContain('http://pim.test/pim/?gsid=[redacted]');
  });

  it('redacts gsid and the provider code wherever they stand, and the token of a logout path', () => {
    expect(redactUrl('/pim/imagesets?redirect=%2Fpim%2F&gsid=abc&x=1#top')).toBe('/pim/imagesets?redirect=%2Fpim%2F&gsid=[redacted]&x=1#top');
    expect(redactUrl('http://pim.lan/pim/?GSID=abc')).toBe('http://pim.lan/pim/?GSID=[redacted]');
    expect(redactUrl('/api/google/callback?state=s&code=c&iss=i')).toBe('/api/google/callback?state=s&code=[redacted]&iss=i');
    expect(redactUrl('/pim-api/google/some-token')).toBe('/pim-api/google/[redacted]');
    for (const url of ['/api/google/login?returnURL=x', '/api/google/getRoles', '/api/google/callback']) expect(redactUrl(url)).toBe(url);
  });
});
