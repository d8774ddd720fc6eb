import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../test-support/test-app.js';
import { signIn } from '../test-support/test-browser.js';
import { adminBanner, bootstrapAdmin, createUser } from './accounts.js';

describe('the first admin, with the embedded provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PIM_ADMIN_EMAIL: 'Boss@Example.org', PIM_ADMIN_PASSWORD: 'boss-password' });
  });
  afterAll(() => t.close());

  it('is created once, from PIM_ADMIN_EMAIL and PIM_ADMIN_PASSWORD, and can sign in as ADMIN', async () => {
    const admin = await bootstrapAdmin(t.app.services, t.config);
    expect(admin).toEqual({ email: 'Boss@Example.org', generatedPassword: null, external: false });
    expect(adminBanner(admin!, t.config)).toContain('Password: the one set in PIM_ADMIN_PASSWORD');
    expect(await bootstrapAdmin(t.app.services, t.config)).toBeNull();

    const { gsid } = await signIn(t.app, { email: 'boss@example.org', password: 'boss-password' });
    const roles = await call(t.app, { method: 'POST', url: '/api/google/getRoles', headers: { authorization: `Google ${gsid}` } });
    expect(roles.json).toEqual(['AUTHENTICATED', 'ADMIN']);
  });
});

describe('users with an external issuer', () => {
  let t: TestApp;
  const external = {
    OIDC_ISSUER: 'https://keycloak.example.org/realms/pim',
    OIDC_CLIENT_ID: 'pim',
    OIDC_CLIENT_SECRET: 'not-used-here',
    OIDC_PROVIDER_NAME: 'Keycloak',
  };
  beforeAll(async () => {
    t = await createTestApp(external);
  });
  afterAll(() => t.close());

  it('has no embedded provider and no first admin without PIM_ADMIN_EMAIL', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(404);
    expect(await bootstrapAdmin(t.app.services, t.config)).toBeNull();
  });

  it('creates the first admin without a password, to be linked at the first sign-in', async () => {
    const config = { ...t.config, admin: { email: 'chief@example.org', password: undefined } };
    const admin = await bootstrapAdmin(t.app.services, config);
    expect(admin).toEqual({ email: 'chief@example.org', generatedPassword: null, external: true });
    expect(adminBanner(admin!, config)).toContain('signs in with Keycloak, linked by this email at the first sign-in');
    const made = await createUser(t.app.services, t.config.oidc, { email: 'ren@example.org', name: 'Ren', admin: false });
    expect(made.generatedPassword).toBeNull();
    expect(made.user).toMatchObject({ email: 'ren@example.org', password_hash: null, persistent_id: null, roles: [] });
  });
});
