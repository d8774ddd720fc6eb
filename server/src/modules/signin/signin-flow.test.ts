import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test-support/test-app.js';
import { ApiKeyRepository } from '../apikeys/repository.js';
import { localUser, openSignInForm, signIn, submitSignIn, TestBrowser } from '../../test-support/test-browser.js';

describe('sign-in through the embedded provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const roles = (authorization: string) => call(t.app, { method: 'POST', url: '/api/google/getRoles', headers: { authorization } });

  it('redirects to the provider with PKCE, a nonce and a state', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/google/login?returnURL=http%3A%2F%2Fpim.test%2Fpim%2F' });
    expect(login.statusCode).toBe(302);
    const to = new URL(String(login.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe('http://pim.test/oidc/auth');
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: 'pim',
      response_type: 'code',
      redirect_uri: 'http://pim.test/api/google/callback',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)).toMatch(/^[\w-]{43,}$/);
  });

  it('shows its own sign-in page, without scripts', async () => {
    const form = await openSignInForm(new TestBrowser(t.app));
    expect(form.status).toBe(200);
    expect(form.body).toContain('<title>Sign in to PIM</title>');
    expect(form.body).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/);
    expect(form.body).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(form.body).toContain('<button type="submit">Sign in</button>');
    expect(form.body).not.toMatch(/<script|https?:\/\//i);
    expect(form.headers['content-security-policy']).toContain("script-src 'self'");
    expect(form.headers['cache-control']).toBe('no-store');
  });

  it('signs a user in and returns to returnURL with gsid and redirect; the token gives the roles', async () => {
    const user = await localUser(t.app);
    const { landing, gsid } = await signIn(t.app, user, { returnURL: 'http://pim.test/pim/?lang=nl', redirect: '/pim/imagesets?x=1' });
    expect(`${landing.origin}${landing.pathname}`).toBe('http://pim.test/pim/');
    expect(landing.searchParams.get('lang')).toBe('nl');
    expect(landing.searchParams.get('redirect')).toBe('/pim/imagesets?x=1');
    expect(gsid).toMatch(/^[\w-]{43}$/);

    expect((await roles(`Google ${gsid}`)).json).toEqual(['AUTHENTICATED']);
    expect((await roles(`Bearer ${gsid}`)).json).toEqual(['AUTHENTICATED']);
    const self = await call(t.app, { method: 'GET', url: '/api/pim/users/self', headers: { authorization: `Bearer ${gsid}` } });
    expect(self.json).toMatchObject({ uuid: user.id, email: user.email, persistentId: user.id, googleId: null });
  });

  it('gives an admin the ADMIN role as well', async () => {
    const admin = await localUser(t.app, { admin: true });
    const { gsid } = await signIn(t.app, admin);
    expect((await roles(`Google ${gsid}`)).json).toEqual(['AUTHENTICATED', 'ADMIN']);
  });

  it('ends a session on logout', async () => {
    const { gsid } = await signIn(t.app, await localUser(t.app));
    const out = await t.app.inject({ method: 'DELETE', url: `/api/google/${gsid}` });
    expect(out.statusCode).toBe(204);
    const after = await roles(`Google ${gsid}`);
    expect(after.status).toBe(403);
    expect(after.json.message).toBe('Your session is not valid or has expired. Log in again.');
  });

  it('accepts API keys and refuses disabled ones', async () => {
    const { row, apiKey } = await t.app.services.apiKeys.create({ userName: 'harvester', roles: ['minion'] });
    expect((await roles(`ApiKey ${apiKey}`)).json).toEqual(['AUTHENTICATED', 'MINION']);
    await new ApiKeyRepository(t.app.database.db).setDisabled(row.id, true);
    const refused = await roles(`ApiKey ${apiKey}`);
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe('This API key is disabled.');
  });

  it('drops redirects that leave the app and replaces a returnURL on another origin', async () => {
    const user = await localUser(t.app);
    for (const redirect of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      const { landing } = await signIn(t.app, user, { returnURL: 'https://evil.example/pim/', redirect });
      expect(landing.href).toMatch(/^http:\/\/pim\.test\/pim\/\?gsid=[\w-]+$/);
    }
    const missing = await signIn(t.app, user, {});
    expect(missing.landing.href).toMatch(/^http:\/\/pim\.test\/pim\/\?gsid=[\w-]+$/);
  });

  it('refuses a callback whose state is unknown or used already', async () => {
    const user = await localUser(t.app);
    const browser = new TestBrowser(t.app);
    const done = await submitSignIn(browser, await openSignInForm(browser), user.email, user.password);
    const callback = done.url;
    expect(callback).toMatch(/^http:\/\/pim\.test\/api\/google\/callback\?code=/);

    const again = await browser.open(callback);
    expect(again.status).toBe(400);
    expect(again.headers['content-type']).toContain('text/html');
    expect(again.body).toContain('This sign-in is unknown, has expired or was completed already.');
    expect(again.body).toContain('href="http://pim.test/pim/"');

    const unknown = await call(t.app, { method: 'GET', url: '/api/google/callback?code=abc&state=made-up' });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ error: 'bad_request', message: expect.stringContaining('Go back to PIM and log in again.') });
    expect((await call(t.app, { method: 'GET', url: '/api/google/callback' })).status).toBe(400);
  });

  it('explains a refusal by the provider', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/google/login' });
    const state = new URL(String(login.headers.location)).searchParams.get('state')!;
    const qs = new URLSearchParams({ error: 'access_denied', state, iss: 'http://pim.test/oidc' });
    const res = await call(t.app, { method: 'GET', url: `/api/google/callback?${qs}` });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Google did not sign you in: the sign-in was cancelled or refused. Go back to PIM and log in again.');
  });

  it('refuses a user disabled between the sign-in form and the callback', async () => {
    const user = await localUser(t.app);
    const browser = new TestBrowser(t.app);
    const form = await openSignInForm(browser);
    // Stop before the callback: submit, then follow the provider's redirects by hand.
    let page = await browser.open(form.body.match(/action="([^"]+)"/)![1]!, { email: user.email, password: user.password });
    while (page.location && !page.location.includes('/api/google/callback')) page = await browser.open(page.location);
    await t.app.services.users.setDisabled(user.id, true);
    const refused = await browser.open(page.location!);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('This account is disabled. Ask an administrator.');
  });
});
