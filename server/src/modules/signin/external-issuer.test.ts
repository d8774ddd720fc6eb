import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test-support/test-app.js';
import { RelyingParty } from './relying-party.js';
import { localUser, openSignInForm, submitSignIn, TestBrowser } from '../../test-support/test-browser.js';

/**
 * PIM against an external issuer, over the network. The issuer is another PIM server's
 * embedded provider, listening on a loopback port; both servers share one public address (a
 * proxy sends /oidc/ to the issuer), so the redirect URI the issuer knows is PIM's.
 */
describe('sign-in at an external issuer', () => {
  let issuer: TestApp;
  let pim: TestApp;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    issuer = await createTestApp({ PUBLIC_URL: origin });
    await issuer.app.listen({ host: '127.0.0.1', port });
    pim = await createTestApp({
      PUBLIC_URL: origin,
      OIDC_ISSUER: `${origin}/oidc`,
      OIDC_CLIENT_ID: 'pim',
      OIDC_CLIENT_SECRET: await issuer.app.services.embeddedProvider.secrets.clientSecret(),
      OIDC_PROVIDER_NAME: 'Keycloak',
    });
  });
  afterAll(async () => {
    await pim?.close();
    await issuer?.close();
  });

  async function signInAtIssuer(who: { email: string; password: string }) {
    const browser = new TestBrowser(pim.app, { origin });
    browser.route('/oidc/', issuer.app);
    const form = await openSignInForm(browser, { returnURL: `${origin}/pim/` });
    const done = await submitSignIn(browser, form, who.email, who.password);
    expect(done.status, done.body).toBe(302);
    return new URL(done.location!).searchParams.get('gsid')!;
  }

  const getRoles = (gsid: string) =>
    call(pim.app, { method: 'POST', url: '/api/google/getRoles', headers: { authorization: `Keycloak ${gsid}` } });
  const self = async (gsid: string) =>
    (await call(pim.app, { method: 'GET', url: '/api/pim/users/self', headers: { authorization: `Keycloak ${gsid}` } })).json;

  it('creates a PIM user for a person the issuer knows, and finds them again by subject', async () => {
    const person = await localUser(issuer.app);
    const gsid = await signInAtIssuer(person);
    expect((await getRoles(gsid)).json).toEqual(['AUTHENTICATED']);
    const user = await self(gsid);
    expect(user).toMatchObject({ email: person.email, persistentId: person.id, googleId: null, name: expect.stringMatching(/^Signer/) });
    expect(user.uuid).not.toBe(person.id);

    const again = await self(await signInAtIssuer(person));
    expect(again.uuid).toBe(user.uuid);
  });

  it('links a user created beforehand (the first admin) by verified email', async () => {
    const person = await localUser(issuer.app);
    const chief = await pim.app.services.users.createLocal({ email: person.email, name: 'Chief', passwordHash: null, admin: true });
    const gsid = await signInAtIssuer(person);
    expect((await getRoles(gsid)).json).toEqual(['AUTHENTICATED', 'ADMIN']);
    expect(await self(gsid)).toMatchObject({ uuid: chief.id, name: 'Chief', persistentId: person.id });
  });

  it('does not force a password prompt at an external issuer', async () => {
    const login = await pim.app.inject({ method: 'GET', url: '/api/google/login' });
    const to = new URL(String(login.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe(`${origin}/oidc/auth`);
    expect(to.searchParams.has('prompt')).toBe(false);
  });

  it('without PUBLIC_URL, names the callback on the address the browser used, and sends it to the issuer as it is', async () => {
    const unpinned = await createTestApp({
      PUBLIC_URL: undefined,
      OIDC_ISSUER: `${origin}/oidc`,
      OIDC_CLIENT_ID: 'pim',
      OIDC_CLIENT_SECRET: 'not-used-here',
    });
    try {
      const login = await unpinned.app.inject({ method: 'GET', url: '/api/google/login', headers: { host: 'pim.lan:8080' } });
      const to = new URL(String(login.headers.location));
      expect(`${to.origin}${to.pathname}`).toBe(`${origin}/oidc/auth`);
      expect(to.searchParams.get('redirect_uri')).toBe('http://pim.lan:8080/api/google/callback');
    } finally {
      await unpinned.close();
    }
  });

  it('says so when the issuer cannot be reached', async () => {
    const port = await freePort();
    const rp = new RelyingParty({
      issuer: `http://127.0.0.1:${port}/realms/pim`,
      providerName: 'Keycloak',
      clientId: 'pim',
      clientSecret: async () => 'secret',
    });
    const checks = { state: 's', nonce: 'n', codeVerifier: 'v'.repeat(43) };
    await expect(rp.authorizationUrl(checks, { redirectUri: `${origin}/api/google/callback`, publicUrl: origin })).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(
        new RegExp(`^The sign-in provider Keycloak \\(http://127\\.0\\.0\\.1:${port}/realms/pim\\) cannot be reached: .+\\. Try again later\\.$`),
      ),
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
