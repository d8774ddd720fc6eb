import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { COUNTER, OVERSEER } from '../accounts';
import { pagePng, printedPage, printedPageXml } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

async function postfile(request: APIRequestContext, token: string, setId: string, file: string, mimeType: string, buffer: Buffer) {
  const res = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name: file, mimeType, buffer } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The figure of the top row under this label. */
const figure = (page: Page, label: string) => page.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });

/** The cells of a chart's numbers table, row by row. */
async function numbersOf(chart: Locator): Promise<string[][]> {
  await chart.getByRole('button', { name: 'Show numbers' }).click();
  const rows = await chart.getByRole('table').getByRole('row').all();
  return Promise.all(rows.slice(1).map((row) => row.getByRole('cell').allTextContents()));
}

test('a user reads the statistics of what he owns and may read; an administrator sees everything, the queue and the disk', async ({ page, request }) => {
  test.setTimeout(240_000);
  await signIn(page, COUNTER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Ledgers');
  const size = { width: 900, height: 400 };
  const ledger = await printedPage(['Received of the tenants'], size);
  await postfile(request, token, setId, 'ledger-1.png', 'image/png', ledger.png);
  await postfile(request, token, setId, 'ledger-2.png', 'image/png', await pagePng(60, 600, 400));
  await postfile(request, token, setId, 'ledger-1.xml', 'application/xml', Buffer.from(printedPageXml('ledger-1.png', size, [ledger.lines], [0])));

  // With 'Own data only' the figures are exactly what he made.
  await page.getByRole('checkbox', { name: 'Own data only' }).check();
  await page.goto('/pim/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('statistics-scope')).toHaveText("What your own image sets hold ('Own data only' is on).");
  await expect(figure(page, 'Image sets').locator('dd').first()).toHaveText('1');
  await expect(figure(page, 'Images').locator('dd').first()).toHaveText('2');
  await expect(figure(page, 'Images').locator('dd').nth(1)).toHaveText('+2 in 14 days');
  await expect(figure(page, 'OCR results').locator('dd').first()).toHaveText('1');
  await expect(figure(page, 'PAGE layouts').locator('dd').first()).toHaveText('1');

  // The chart of the last 14 days says today's numbers; the share names the set.
  const recent = page.getByRole('region', { name: 'The last 14 days' });
  const days = await numbersOf(recent);
  expect(days).toHaveLength(14);
  expect(days.at(-1)!.slice(1)).toEqual(['2', '1', '1', '0', '0']);
  const perSet = page.getByRole('region', { name: 'Images per image set' });
  await expect(perSet.getByTitle('E2E Ledgers')).toBeVisible();
  const ownFiles = page.getByRole('region', { name: 'Your stored files' });
  await expect(ownFiles.getByText('3 files', { exact: false })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your jobs' })).toBeVisible();

  // Without it, what he may read: at least his own.
  await page.getByRole('checkbox', { name: 'Own data only' }).uncheck();
  await expect(page.getByTestId('statistics-scope')).toHaveText('What the image sets you may read hold, and your own similarity searches.');
  await expect(figure(page, 'Images').locator('dd').first()).toHaveText(/^\d+$/);
  expect(Number(await figure(page, 'Images').locator('dd').first().textContent())).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: test.info().outputPath('dashboard-user.png'), fullPage: true });

  // An administrator: every set of the server, the whole queue, the cache and the disk.
  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, OVERSEER, '/pim/dashboard');
  await expect(page.getByTestId('statistics-scope')).toHaveText('Everything on this server: you are an administrator.');
  await expect(page.getByRole('region', { name: 'Job queue' })).toBeVisible();
  const storage = page.getByRole('region', { name: 'Storage' });
  await expect(storage.getByText(/^Disk of the data dir: .+ free of .+$/)).toBeVisible();
  expect(Number((await figure(page, 'Images').locator('dd').first().textContent())!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole('region', { name: 'Images per image set' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dashboard-admin.png'), fullPage: true });
});
