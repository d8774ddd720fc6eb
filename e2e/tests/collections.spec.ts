import { expect, test } from '@playwright/test';
import { ARCHIVIST } from '../accounts';
import { pagePng, pagesPdf } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

test('an archivist builds a collection: upload, hierarchy, viewer, remove, delete', async ({ page, request }) => {
  await signIn(page, ARCHIVIST, '/pim/imagesets');

  // A new set opens on its own page.
  await page.getByRole('button', { name: 'New imageset' }).click();
  await page.getByRole('dialog').getByLabel('Name imageset').fill('E2E Collection');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'E2E Collection' })).toBeVisible();
  const setUrl = page.url();

  // Three images and a two-page PDF, uploaded one by one in the chosen order.
  await page.getByRole('button', { name: 'Actions for E2E Collection' }).click();
  await page.getByRole('menuitem', { name: 'Upload image' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload to E2E Collection' });
  await upload.locator('input[type=file]').setInputFiles([
    { name: 'page 1.png', mimeType: 'image/png', buffer: await pagePng(10) },
    { name: 'page 2.png', mimeType: 'image/png', buffer: await pagePng(120) },
    { name: 'page 10.png', mimeType: 'image/png', buffer: await pagePng(240) },
    { name: 'charter.pdf', mimeType: 'application/pdf', buffer: await pagesPdf(2) },
  ]);
  const rows = upload.getByRole('table', { name: 'Files to upload' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'Waiting' })).toHaveCount(4);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(rows.filter({ hasText: 'Done' })).toHaveCount(4, { timeout: 30_000 });
  await expect(upload.getByText('charter.pdf: 2 pages were added to the set.')).toBeVisible();
  await upload.getByRole('button', { name: 'Close' }).click();

  const tree = page.getByRole('tree', { name: 'Imagesets and images' });
  for (const name of ['page 1', 'page 2', 'page 10', 'charter p. 1', 'charter p. 2']) {
    await expect(tree.getByRole('link', { name, exact: true })).toBeVisible();
  }

  // A second level: a set with one image of its own, added as a sub-set.
  const token = await sessionToken(page);
  const subsetId = await createImageSet(request, token, 'E2E Appendix');
  const added = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${subsetId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name: 'appendix.png', mimeType: 'image/png', buffer: await pagePng(60) } },
  });
  expect(added.status()).toBe(200);

  await page.getByRole('button', { name: 'Actions for E2E Collection' }).click();
  await page.getByRole('menuitem', { name: 'Add imageset' }).click();
  const addSet = page.getByRole('dialog');
  await addSet.getByLabel('Imageset').fill('E2E App');
  await page.getByRole('option', { name: 'E2E Appendix' }).click();
  await addSet.getByRole('button', { name: 'Add' }).click();
  await expect(tree.getByRole('link', { name: 'E2E Appendix' })).toBeVisible();

  // The folder loads its children once, on first open.
  const loads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/documentimageset/${subsetId}/hierarchy`)) loads.push(r.url());
  });
  await tree.getByRole('button', { name: 'Open E2E Appendix' }).click();
  await expect(tree.getByRole('link', { name: 'appendix', exact: true })).toBeVisible();
  await tree.getByRole('button', { name: 'Close E2E Appendix' }).click();
  await tree.getByRole('button', { name: 'Open E2E Appendix' }).click();
  await expect(tree.getByRole('link', { name: 'appendix', exact: true })).toBeVisible();
  expect(loads).toHaveLength(1);

  // An image opens in the zoomable viewer over the IIIF Image API.
  const tiles = page.waitForResponse((r) => r.url().includes('/iiif/3/') && r.url().endsWith('.jpg') && r.status() === 200);
  await tree.getByRole('link', { name: 'page 2', exact: true }).click();
  await expect(page).toHaveURL(/\/pim\/documentimage\?uuid=/);
  await tiles;
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.locator('.openseadragon-canvas')).toBeVisible();

  // Remove takes an item out of its folder.
  await page.goto(setUrl);
  await tree.getByRole('button', { name: 'Remove page 10' }).click();
  await expect(tree.getByRole('link', { name: 'page 10', exact: true })).toHaveCount(0);
  await expect(tree.getByRole('link', { name: 'page 1', exact: true })).toBeVisible();

  // The set downloads from its row in the list, under the spec's file names.
  const setId = new URL(setUrl).searchParams.get('uuid')!;
  await page.goto('/pim/imagesets');
  const row = page.getByRole('table', { name: 'Imagesets' }).getByRole('row', { name: /E2E Collection/ });
  for (const [choice, suffix] of [
    ['JSON zip', '_json.zip'],
    ['PAGE zip', '_page.zip'],
    ['Zipped images', '_images.zip'],
  ] as const) {
    await row.getByRole('button', { name: 'Download' }).click();
    const saved = page.waitForEvent('download');
    await page.getByRole('dialog', { name: 'Download E2E Collection' }).getByRole('button', { name: choice }).click();
    expect((await saved).suggestedFilename()).toBe(`${setId}${suffix}`);
    await page.keyboard.press('Escape');
  }
  const pdf = page.waitForEvent('download');
  await row.getByRole('button', { name: 'PDF' }).click();
  expect((await pdf).suggestedFilename()).toBe(`${setId}.pdf`);

  // Delete asks first, then returns to the list, where the set is gone.
  await page.goto(setUrl);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/pim\/imagesets/);
  await expect(page.getByRole('table', { name: 'Imagesets' })).not.toContainText('E2E Collection');
});
