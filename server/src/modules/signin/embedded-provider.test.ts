import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { LoginFailureRepository } from '../../platform/auth/embedded-provider/repository.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { localUser, openSignInForm, signIn, submitSignIn, TestBrowser } from '../../test-support/test-browser.js';

const WRONG = 'Wrong email or password.';

describe('the embedded provider’s sign-in form', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sessionCount = async () =>
    Number((await t.app.database.db.selectFrom('user_session').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  /** Tries credentials on a fresh sign-in form, from one client address. */
  async function attempt(email: string, password: string, remoteAddress = '192.0.2.1') {
    const browser = new TestBrowser(t.app, { remoteAddress });
    return submitSignIn(browser, await openSignInForm(browser), email, password);
  }

  it('says "Wrong email or password." for a wrong password and an unknown email alike, and starts no session', async () => {
    const user = await localUser(t.app);
    const before = await sessionCount();
    const wrong = await attempt(user.email, 'not-the-password');
    const unknown = await attempt('nobody@example.org', 'whatever-it-is');
    for (const page of [wrong, unknown]) {
      expect(page.status).toBe(401);
      expect(page.location).toBeUndefined();
      expect(page.body).toContain(`<p class="alert" role="alert">${WRONG}</p>`);
      expect(page.body).toContain('<title>Sign in to PIM</title>');
    }
    expect(wrong.body).toContain(`value="${user.email}"`);
    expect(await sessionCount()).toBe(before);
  });

  it('matches the email case-insensitively and asks for both fields', async () => {
    const user = await localUser(t.app);
    const { gsid } = await signIn(t.app, { email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(gsid).not.toBe('');
    const empty = await attempt(user.email, '');
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('Enter your email and password.');
  });

  it('refuses a disabled account with its own message', async () => {
    const user = await localUser(t.app);
    await t.app.services.users.setDisabled(user.id, true);
    const page = await attempt(user.email, user.password);
    expect(page.status).toBe(403);
    expect(page.body).toContain('This account is disabled. Ask an administrator.');
  });

  it('blocks an email after 5 failures in 15 minutes, even with the right password', async () => {
    const user = await localUser(t.app);
    for (let i = 0; i < 5; i++) expect((await attempt(user.email, `guess-${i}`)).status).toBe(401);
    const blocked = await attempt(user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toContain('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  it('gives a burst of parallel guesses no more tries than the limit', async () => {
    const user = await localUser(t.app);
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(user.email, `burst-${i}`, '203.0.113.9')));
    let wrong = burst.filter((p) => p.status === 401).length;
    expect(wrong).toBeLessThanOrEqual(5);
    expect(burst.every((p) => p.status === 401 || p.status === 429)).toBe(true);
    for (let status = 401; status === 401; wrong++) status = (await attempt(user.email, 'guess', '203.0.113.9')).status;
    expect(wrong - 1).toBe(5);
  });

  it('forgets an email’s failures after a successful sign-in', async () => {
    const user = await localUser(t.app);
    for (let i = 0; i < 4; i++) await attempt(user.email, `guess-${i}`);
    await signIn(t.app, user);
    for (let i = 0; i < 4; i++) expect((await attempt(user.email, `again-${i}`)).status).toBe(401);
    expect((await attempt(user.email, user.password)).status).toBe(302);
  });

  it('blocks a client address after 20 failures, whatever the email', async () => {
    const user = await localUser(t.app);
    // Twenty earlier failures from this address, each for another email (as a sprayer would).
    const failures = new LoginFailureRepository(t.app.database.db);
    for (let i = 0; i < 20; i++) await failures.record(`someone-${i}@example.org`, '198.51.100.7', new Date());
    const blocked = await attempt(user.email, user.password, '198.51.100.7');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toContain('Too many failed sign-in attempts.');
    expect((await attempt(user.email, user.password, '198.51.100.8')).status).toBe(302);
  });

  it('lets the next person at a shared browser sign in as someone else', async () => {
    const first = await localUser(t.app);
    const second = await localUser(t.app);
    const browser = new TestBrowser(t.app);
    const signInAs = async (who: { email: string; password: string }) => {
      const done = await submitSignIn(browser, await openSignInForm(browser, { returnURL: 'http://pim.test/pim/' }), who.email, who.password);
      expect(done.status, done.body.slice(0, 400)).toBe(302);
      const gsid = new URL(done.location!).searchParams.get('gsid')!;
      return (await t.app.services.sessions.authenticate(gsid))!.userId;
    };
    // The provider's own session of the first sign-in stays in the browser after PIM's logout.
    expect(await signInAs(first)).toBe(first.id);
    expect(await signInAs(second)).toBe(second.id);
    expect(await signInAs(first)).toBe(first.id);
  });

  it('shows a way back for a stale or foreign sign-in page', async () => {
    const stale = await new TestBrowser(t.app).open('/oidc/interaction/no-such-interaction');
    expect(stale.status).toBe(400);
    expect(stale.body).toContain('This sign-in page has expired or was used already.');
    const post = await new TestBrowser(t.app).open('/oidc/interaction/no-such-interaction/login', { email: 'a@b.c', password: 'x' });
    expect(post.status).toBe(400);
  });

  it('answers a bad authorization request with its own error page', async () => {
    const res = await new TestBrowser(t.app).open('/oidc/auth?client_id=someone-else&response_type=code&scope=openid');
    expect(res.status).toBe(400);
    expect(res.body).toContain('Sign-in failed');
    expect(res.body).not.toMatch(/<script|googleapis/);
  });

  it('keeps its keys across restarts, and a sign-in started by one server process finishes on another', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://pim.test' });
    const other = await buildApp(config, { database: t.app.database });
    try {
      const jwks = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/oidc/jwks' })).json();
      expect((await jwks(t.app)).keys).toHaveLength(1);
      expect(await jwks(other)).toEqual(await jwks(t.app));

      const user = await localUser(t.app);
      const browser = new TestBrowser(t.app);
      const form = await openSignInForm(browser);
      // The same browser (its cookies) continues on the other server, as behind a load balancer.
      browser.useServer(other);
      const done = await submitSignIn(browser, form, user.email, user.password);
      expect(done.status).toBe(302);
      expect(done.location).toMatch(/^http:\/\/pim\.test\/pim\/\?gsid=/);
    } finally {
      await other.close();
    }
  });
});
