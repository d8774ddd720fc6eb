import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test-support/test-app.js';
import { localUser, openSignInForm, submitSignIn, TestBrowser } from '../../test-support/test-browser.js';

const CHECK = 'browser-kept-check-0123456789';

/** Without PUBLIC_URL the whole sign-in stays on the address the browser used. */
describe('sign-in at whatever address the server is reached by', () => {
  let t: TestApp;
  let behindProxy: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: undefined, PORT: '8080' });
    behindProxy = await createTestApp({ PUBLIC_URL: undefined, TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    await behindProxy?.close();
  });

  /** The test browser refuses to leave its origin, so reaching the end proves the flow stayed on it. */
  async function signInAt(app: TestApp, origin: string, headers: Record<string, string> = {}) {
    const user = await localUser(app.app);
    const browser = new TestBrowser(app.app, { origin, headers });
    const form = await openSignInForm(browser, { returnURL: `${origin}/pim/`, redirect: '/pim/imagesets', loginCheck: CHECK });
    expect(form.url.startsWith(`${origin}/oidc/interaction/`), form.url).toBe(true);
    const done = await submitSignIn(browser, form, user.email, user.password);
    expect(done.url.startsWith(`${origin}/api/google/callback?code=`), done.url).toBe(true);
    expect(done.status, done.body).toBe(302);
    return new URL(done.location!);
  }

  for (const origin of ['http://127.0.0.1:8080', 'http://pim.lan:8080', 'http://[::1]:8080', 'http://localhost:8080']) {
    it(`signs in through ${origin} and lands there with the token and the login check`, async () => {
      const landing = await signInAt(t, origin);
      expect(`${landing.origin}${landing.pathname}`).toBe(`${origin}/pim/`);
      expect(landing.searchParams.get('redirect')).toBe('/pim/imagesets');
      expect(landing.searchParams.get('loginCheck')).toBe(CHECK);
      const gsid = landing.searchParams.get('gsid')!;
      const roles = await call(t.app, { method: 'POST', url: '/api/google/getRoles', headers: { authorization: `Google ${gsid}` } });
      expect(roles.json).toEqual(['AUTHENTICATED']);
    });
  }

  it('keeps the issuer identifier whatever address asks, while the browser-facing endpoints follow it', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers: { host: '127.0.0.1:8080' } });
    expect(discovery.json()).toMatchObject({ issuer: 'http://localhost:8080/oidc', authorization_endpoint: 'http://127.0.0.1:8080/oidc/auth' });
  });

  it('replaces a returnURL on another origin than the one the browser used', async () => {
    const login = await t.app.inject({
      method: 'GET',
      url: `/api/google/login?returnURL=${encodeURIComponent('http://localhost:8080/pim/')}`,
      headers: { host: '127.0.0.1:8080' },
    });
    const state = new URL(String(login.headers.location)).searchParams.get('state')!;
    const saved = await t.app.database.db.selectFrom('oidc_login_state').selectAll().where('state', '=', state).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ return_url: 'http://127.0.0.1:8080/pim/', redirect_uri: 'http://127.0.0.1:8080/api/google/callback' });
  });

  it('refuses a redirect URI on another address than the authorization request came to', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/google/login', headers: { host: '127.0.0.1:8080' } });
    const to = new URL(String(login.headers.location));
    to.searchParams.set('redirect_uri', 'http://evil.example/api/google/callback');
    const res = await new TestBrowser(t.app, { origin: 'http://127.0.0.1:8080' }).open(to.href);
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.body).toContain('redirect_uri did not match any of the client&#39;s registered redirect_uris');
    expect(res.body).toContain('href="http://127.0.0.1:8080/pim/"');
  });

  it('answers 400 to a Host that is no host name or address, and builds no link from it', async () => {
    for (const host of ['evil.example/path', 'a@evil.example', 'evil.example:99999', 'bad host', 'evil.example, pim.lan']) {
      const res = await call(t.app, { method: 'GET', url: '/api/google/login', headers: { host } });
      expect(res.status, host).toBe(400);
      expect(res.json.message).toBe('The Host header must be a host name or an IP address, with an optional port.');
      expect(res.res.headers.location).toBeUndefined();
    }
  });

  it('takes the address from X-Forwarded-Proto and -Host only from a trusted proxy', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pim.example.org' };
    const ignored = await t.app.inject({ method: 'GET', url: '/api/google/login', headers: { host: '127.0.0.1:8080', ...forwarded } });
    expect(String(ignored.headers.location)).toMatch(/^http:\/\/127\.0\.0\.1:8080\/oidc\/auth\?/);

    const landing = await signInAt(behindProxy, 'https://pim.example.org', forwarded);
    expect(landing.href).toMatch(/^https:\/\/pim\.example\.org\/pim\/\?gsid=/);
  });
});
