import { expect, test } from '@playwright/test';
import { ADMIN, RESEARCHER, RETURNER } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

const USER_MENUS = ['Data', 'Analyze Image', 'Digital Forensics', 'Jobs', 'Search'];

test('signed out, only the Login link shows; unknown paths say so', async ({ page }) => {
  await page.goto('/pim/');
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  for (const menu of USER_MENUS) await expect(page.getByRole('button', { name: menu, exact: true })).toHaveCount(0);
  await page.goto('/pim/no-such-screen');
  await expect(page.getByText('Sorry, page not found!')).toBeVisible();
});

test("the page of a screen's address asks for that screen's code and texts, and the app uses them rather than asking again", async ({ page, request }) => {
  const html = await (await request.get('/pim/imagesets', { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text();
  const preloaded = [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="([^"]+)"/g)].map((m) => m[1] ?? '');
  expect(preloaded.some((href) => /\/pim\/assets\/image-sets-page-[\w-]+\.js$/.test(href))).toBe(true);
  expect(preloaded).toEqual(expect.arrayContaining(['/pim/locales/en/common.json', '/pim/locales/en/imagesets.json']));
  for (const href of preloaded) expect((await request.get(href)).status(), href).toBe(200);

  const asked: string[] = [];
  page.on('request', (req) => asked.push(new URL(req.url()).pathname));
  await page.goto('/pim/imagesets');
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  for (const href of preloaded) expect(asked.filter((path) => path === href), href).toHaveLength(1);
});

test("a signed-in user's image sets come drawn in the page, and the app takes them over as they are, wide or narrow", async ({ page, request }) => {
  await signIn(page, RETURNER, '/pim/imagesets');
  const token = await sessionToken(page);
  await createImageSet(request, token, 'Register of deeds, 1623');
  // Only her own: other specs' public sets stay out of the table.
  await page.getByRole('checkbox', { name: 'Own data only' }).check();

  for (const width of [1400, 800]) {
    // The page as drawn, before any of the app's code runs: the menus or the burger as the width asks.
    const drawn = await page.context().newPage();
    await drawn.setViewportSize({ width, height: 900 });
    await drawn.route('**/pim/start-app.js', (route) => route.abort());
    await drawn.goto('/pim/imagesets');
    await expect(drawn.getByText('Register of deeds, 1623')).toBeVisible();
    await expect(drawn.locator('nav[aria-label="Main navigation"]')).toBeVisible({ visible: width > 1200 });
    await expect(drawn.locator('button[aria-label="Open or close the menu"]')).toBeVisible({ visible: width <= 1200 });
    await drawn.close();

    // A new window of the same browser: its storage and cookies, nothing in memory.
    const later = await page.context().newPage();
    await later.setViewportSize({ width, height: 900 });
    const problems: string[] = [];
    later.on('pageerror', (error) => problems.push(error.message));
    later.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const asked: string[] = [];
    later.on('request', (req) => asked.push(new URL(req.url()).pathname));
    // Cells the app would remove were it to draw the table anew rather than take it over.
    await later.addInitScript(() => {
      const counted = window as unknown as { removedCells: number };
      counted.removedCells = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of Array.from(record.removedNodes)) if (node instanceof Element && (node.matches('td') || node.querySelector('td'))) counted.removedCells += 1;
        }
      }).observe(document, { childList: true, subtree: true });
    });

    const html = await (await later.goto('/pim/imagesets'))!.text();
    expect(html).toContain('>Register of deeds, 1623</td>');
    expect(html).toContain('<script id="pim-server-render"');
    const table = later.getByRole('table', { name: 'Imagesets' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const nav = width > 1200 ? later.getByRole('navigation', { name: 'Main navigation' }) : later.getByRole('button', { name: 'Open or close the menu' });
    await expect(nav).toBeVisible();
    // Taken over: no cell drawn again, none of the page's calls asked again, and the row opens its set.
    await later.waitForLoadState('networkidle');
    expect(await later.evaluate(() => (window as unknown as { removedCells: number }).removedCells), `width ${width}`).toBe(0);
    expect(asked.filter((path) => path === '/api/pim/documentimageset' || path === '/api/google/getRoles'), `width ${width}`).toEqual([]);
    // Inert until then: a click on markup nothing answered would have been lost.
    await expect(later.locator('#root')).not.toHaveAttribute('inert');
    await table.getByRole('row').nth(1).click();
    await expect(later).toHaveURL(/\/pim\/imageset\?uuid=[0-9a-f-]{36}$/);
    await expect(later.getByRole('heading', { name: 'Register of deeds, 1623' })).toBeVisible();
    expect(problems, `width ${width}`).toEqual([]);
    await later.close();
  }
});

test('a wrong password is refused on the sign-in page', async ({ page }) => {
  await page.goto('/pim/');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.getByLabel('Email').fill(RESEARCHER.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong email or password.')).toBeVisible();
});

test('a researcher signs in, creates an image set, works the table and logs out', async ({ page, request }) => {
  await signIn(page, RESEARCHER, '/pim/imagesets');
  // Sign-in returns to the page the user started from.
  await expect(page).toHaveURL(/\/pim\/imagesets/);
  await expect(page).not.toHaveURL(/gsid=/);

  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const menu of USER_MENUS) await expect(nav.getByRole('button', { name: menu, exact: true }).or(nav.getByRole('link', { name: menu, exact: true }))).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Admin' })).toHaveCount(0);

  // An empty name is refused, a real one creates the set and opens its page.
  await page.getByRole('button', { name: 'New imageset' }).click();
  const dialog = page.getByRole('dialog', { name: 'New imageset' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Enter a name for the image set.')).toBeVisible();
  await dialog.getByLabel('Name imageset').fill('E2E Charters of Évora');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/pim\/imageset\?uuid=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'E2E Charters of Évora' })).toBeVisible();

  // Eleven more, so the table has a second page.
  const token = await sessionToken(page);
  for (let i = 1; i <= 11; i++) await createImageSet(request, token, `Register ${String(i).padStart(2, '0')}`);

  await page.goto('/pim/imagesets');
  // Other specs' users share public sets, which everyone signed in sees: count only our own.
  await page.getByRole('checkbox', { name: 'Own data only' }).check();
  const table = page.getByRole('table', { name: 'Imagesets' });
  await expect(table.getByRole('row')).toHaveCount(11); // header + 10 rows
  await expect(page.getByText('1–10 of 12')).toBeVisible();

  await page.getByLabel('Rows per page').selectOption('20');
  await expect(table.getByRole('row')).toHaveCount(13);
  await table.getByRole('columnheader', { name: 'imageset' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('E2E Charters of Évora');
  await table.getByRole('columnheader', { name: 'imageset' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('Register 11');
  await expect(page).toHaveURL(/state=/);

  // The address is a permalink: a reload (or a colleague opening it) gives the same table.
  const permalink = page.url();
  await page.goto('about:blank');
  await page.goto(permalink);
  await expect(page.getByLabel('Rows per page')).toHaveValue('20');
  await expect(table.getByRole('row')).toHaveCount(13);
  await expect(table.getByRole('row').nth(1)).toContainText('Register 11');

  // A broken state in the address falls back to the defaults.
  await page.goto('/pim/imagesets?state=%7Bnot-json');
  await expect(page.getByLabel('Rows per page')).toHaveValue('10');
  await expect(table.getByRole('row')).toHaveCount(11);

  // A row opens the set's page.
  await table.getByRole('row', { name: /Register 03/ }).click();
  await expect(page).toHaveURL(/\/pim\/imageset\?uuid=/);
  await expect(page.getByRole('heading', { name: 'Register 03' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // The session is gone on the server too.
  const roles = await request.post('/api/google/getRoles', { headers: { authorization: `Google ${token}` } });
  expect(roles.status()).toBe(403);
});

test('an admin sees the Admin menu with all its entries', async ({ page }) => {
  await signIn(page, ADMIN);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('button', { name: 'Admin' }).click();
  for (const entry of [
    'Api keys / minions',
    'Users',
    'User groups',
    'Pimfieldsets',
    'Configurations',
    'Environments',
    'Elasticsearch indices',
    'Kraken models',
    'Laypa models',
    'Loghi HTR models',
    'Loghi line detection models',
    'P2PaLA models',
    'Pylaia models',
    'Siamese network models',
    'Tesseract 4 models',
    'Dashboard',
    'Roadmap/Change log',
  ]) {
    await expect(page.getByRole('menuitem', { name: entry, exact: true })).toBeVisible();
  }
  await page.getByRole('menuitem', { name: 'Roadmap/Change log' }).click();
  await expect(page).toHaveURL(/\/pim\/changelog$/);

  await page.getByRole('button', { name: 'About' }).click();
  const about = page.getByRole('dialog', { name: 'Manuscript Dating' });
  await expect(about).toBeVisible();
  await about.getByRole('button', { name: 'Close' }).click();
  await expect(about).toHaveCount(0);
});

test('at 1280 pixels the Dutch menus, which do not fit, go behind the burger and come back in English', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN, '/pim/imagesets');
  const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('button', { name: 'Admin' })).toBeInViewport({ ratio: 1 });

  await page.getByRole('combobox', { name: 'Language' }).selectOption('nl');
  await page.getByRole('button', { name: 'Menu openen of sluiten' }).click();
  const side = page.getByRole('navigation', { name: 'Hoofdnavigatie' });
  await expect(side.getByText('Beheer', { exact: true })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('banner').getByRole('navigation')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Taal' }).selectOption('en');
  await expect(nav.getByRole('button', { name: 'Admin' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Open or close the menu' })).toHaveCount(0);

  // Back in Dutch the burger returns with its side menu closed.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('nl');
  await expect(page.getByRole('button', { name: 'Menu openen of sluiten' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hoofdnavigatie' })).toHaveCount(0);
});
