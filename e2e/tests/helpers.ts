import { type APIRequestContext, type Page, expect } from '@playwright/test';

export interface Account {
  email: string;
  password: string;
  name: string;
}

/** Signs in the way a person does: the Login link, the provider's page, back to where they were. */
export async function signIn(page: Page, account: Account, startAt = '/pim/'): Promise<void> {
  await page.goto(startAt);
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to PIM' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The session token the landing page stored, for preparing data through the API. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return token!;
}

export async function createImageSet(request: APIRequestContext, token: string, name: string): Promise<string> {
  const res = await request.post('/api/pim/documentimageset/create', {
    headers: { authorization: `Google ${token}` },
    data: { imageset: name },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { uuid: string }).uuid;
}
