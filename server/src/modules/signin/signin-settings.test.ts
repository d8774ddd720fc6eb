import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test-support/test-app.js';
import { localUser, openSignInForm, submitSignIn, TestBrowser } from '../../test-support/test-browser.js';

describe('sign-in behind https, on another API base, with short sessions', () => {
  const origin = 'https://pim.example.org';
  let t: TestApp;
  beforeAll(async () => {
    // Sessions of this app last two seconds.
    t = await createTestApp({ PUBLIC_URL: origin, API_BASE: '/pim-api/', SESSION_TTL_HOURS: String(2 / 3600) });
  });
  afterAll(() => t.close());

  async function signIn() {
    const user = await localUser(t.app);
    const browser = new TestBrowser(t.app, { origin });
    const form = await openSignInForm(browser, { returnURL: `${origin}/pim/imagesets` }, '/pim-api/');
    return submitSignIn(browser, form, user.email, user.password);
  }

  it('builds every URL from PUBLIC_URL, whatever Host a request names', async () => {
    const discovery = await t.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: 'internal:8080' },
    });
    expect(discovery.json()).toMatchObject({
      issuer: `${origin}/oidc`,
      authorization_endpoint: `${origin}/oidc/auth`,
      token_endpoint: `${origin}/oidc/token`,
    });
    const done = await signIn();
    expect(done.url.startsWith(`${origin}/pim-api/google/callback?code=`)).toBe(true);
    expect(done.location).toMatch(/^https:\/\/pim\.example\.org\/pim\/imagesets\?gsid=[\w-]+$/);
  });

  it('refuses an expired session with 403 on getRoles and 401 elsewhere', async () => {
    const gsid = new URL((await signIn()).location!).searchParams.get('gsid')!;
    const authorization = `Google ${gsid}`;
    const getRoles = () => call(t.app, { method: 'POST', url: '/pim-api/google/getRoles', headers: { authorization } });
    expect((await getRoles()).json).toEqual(['AUTHENTICATED']);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const expired = await getRoles();
    expect(expired.status).toBe(403);
    expect(expired.json.message).toBe('Your session is not valid or has expired. Log in again.');
    const list = await call(t.app, { method: 'GET', url: '/pim-api/pim/documentimageset', headers: { authorization } });
    expect(list.status).toBe(401);
  });
});
