import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

describe('user picker (GET pim/users/autocomplete)', () => {
  let t: TestApp;
  let caller: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    caller = await signedInUser(t.app, { name: 'Caller' });
  });
  afterAll(() => t.close());

  const pick = (query: string, auth: Record<string, string> = caller.auth) =>
    call(t.app, { method: 'GET', url: `/api/pim/users/autocomplete?${query}`, headers: auth });

  it('finds live, enabled users by name or email, a page at a time by name, without their email', async () => {
    const users = [];
    for (const name of ['Scribe Zoë', 'scribe Anna', 'SCRIBE Mark']) users.push(await signedInUser(t.app, { name }));
    const disabled = await signedInUser(t.app, { name: 'Scribe Disabled' });
    await t.app.services.users.setDisabled(disabled.userId, true);

    const page = await pick('filter=scribe');
    expect(page.status).toBe(200);
    expect(page.json).toEqual({
      results: [
        { uuid: users[1]!.userId, name: 'scribe Anna' },
        { uuid: users[2]!.userId, name: 'SCRIBE Mark' },
        { uuid: users[0]!.userId, name: 'Scribe Zoë' },
      ],
      pageSize: 20,
    });
    expect((await pick('filter=SCRIBE&skip=2')).json.results.map((u: { name: string }) => u.name)).toEqual(['Scribe Zoë']);

    // signedInUser gives every user an address like user<n>-<time>@example.org.
    const byEmail = await call(t.app, { method: 'GET', url: '/api/pim/users/self', headers: users[0]!.auth });
    const local = (byEmail.json.email as string).split('@')[0]!;
    expect((await pick(`filter=${local.toUpperCase()}`)).json.results).toEqual([{ uuid: users[0]!.userId, name: 'Scribe Zoë' }]);
  });

  it('is for signed-in callers only', async () => {
    expect((await pick('filter=a', {})).status).toBe(401);
  });
});
