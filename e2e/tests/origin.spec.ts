import { expect, test } from '@playwright/test';
import { INTRUDER, TRAVELLER } from '../accounts';
import { sessionToken, signIn } from './helpers';

/** The server runs without PUBLIC_URL (start-server.mjs): it answers at localhost and 127.0.0.1 alike. */
test('signing in at 127.0.0.1 stays on 127.0.0.1, with the token stored there', async ({ page, baseURL }) => {
  const otherAddress = baseURL!.replace('//localhost:', '//127.0.0.1:');
  expect(otherAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  await signIn(page, TRAVELLER, `${otherAddress}/pim/imagesets`);
  await expect(page).toHaveURL(`${otherAddress}/pim/imagesets`);
  await expect(page.getByRole('link', { name: `Profile of ${TRAVELLER.name}` })).toBeVisible();
  // The token is in 127.0.0.1's storage, and works.
  const token = await sessionToken(page);
  expect(token).toMatch(/^[\w-]{43}$/);
  const roles = await page.request.post(`${otherAddress}/api/google/getRoles`, { headers: { authorization: `Google ${token}` } });
  expect(await roles.json()).toEqual(['AUTHENTICATED']);
});

test("a link with someone else's session does not switch the signed-in user", async ({ page, browser }) => {
  // The intruder signs in in a browser of his own and keeps the address he lands on before it is taken.
  const intruderContext = await browser.newContext();
  const intruderPage = await intruderContext.newPage();
  let intruderLanding = '';
  intruderPage.on('request', (request) => {
    if (request.isNavigationRequest() && request.url().includes('gsid=')) intruderLanding ||= request.url();
  });
  await signIn(intruderPage, INTRUDER);
  const intruderToken = await sessionToken(intruderPage);
  expect(new URL(intruderLanding).searchParams.get('gsid')).toBe(intruderToken);
  await intruderContext.close();

  // The traveller, signed in, follows the link he crafted from it (his login check included).
  await signIn(page, TRAVELLER, '/pim/imagesets');
  const travellerToken = await sessionToken(page);
  await page.goto(new URL(intruderLanding).pathname + new URL(intruderLanding).search);
  await expect(page).not.toHaveURL(/gsid=|loginCheck=/);
  await expect(page.getByRole('link', { name: `Profile of ${TRAVELLER.name}` })).toBeVisible();
  expect(await sessionToken(page)).toBe(travellerToken);

  // A bare gsid is ignored the same way; a real sign-in still works after it.
  await page.goto(`/pim/?gsid=${intruderToken}`);
  await expect(page).toHaveURL(/\/pim\/$/);
  expect(await sessionToken(page)).toBe(travellerToken);
  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, TRAVELLER);
  await expect(page.getByRole('link', { name: `Profile of ${TRAVELLER.name}` })).toBeVisible();
});
