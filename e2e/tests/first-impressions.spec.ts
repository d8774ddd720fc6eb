import { expect, test } from '@playwright/test';
import { HOST, NEWCOMER } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

/** hOCR as OCR tools write it, saved as .html: two lines on the page image `scan.png`. */
const HOCR = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title></title><meta name="ocr-system" content="tesseract 5.3.0" /><meta name="ocr-capabilities" content="ocr_page ocr_line" /></head>
<body><div class="ocr_page" id="page_1" title="image &quot;scan.png&quot;; bbox 0 0 1200 1600">
<span class="ocr_line" title="bbox 100 200 1100 260">Item so hat der herr</span>
<span class="ocr_line" title="bbox 100 300 1100 360">geschriben an dem tag</span>
</div></body></html>
`;

test('a newcomer uploads hOCR as .html, sorts, finds every image of the set and opens one in the viewer', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, NEWCOMER, '/pim/imagesets');
  await page.getByRole('button', { name: 'New imageset' }).click();
  await page.getByRole('dialog').getByLabel('Name imageset').fill('E2E First look');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'E2E First look' })).toBeVisible();

  // One row per file, whatever the picker thinks of it; hOCR saved as .html is welcome.
  await page.getByRole('button', { name: 'Actions for E2E First look' }).click();
  await page.getByRole('menuitem', { name: 'Upload image' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload to E2E First look' });
  await upload.locator('input[type=file]').setInputFiles([
    { name: 'scan.png', mimeType: 'image/png', buffer: await pagePng(30) },
    { name: 'scan.html', mimeType: 'text/html', buffer: Buffer.from(HOCR) },
    { name: 'notes.docx', mimeType: 'application/msword', buffer: Buffer.from('not a page') },
    { name: 'b leaf.png', mimeType: 'image/png', buffer: await pagePng(200) },
  ]);
  const rows = upload.getByRole('table', { name: 'Files to upload' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(upload.locator('.filepond--item')).toHaveCount(0);
  await expect(rows.filter({ hasText: 'notes.docx' }).getByText('Failed', { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: 'notes.docx' })).toContainText('only images, PDFs and XML files');
  await upload.getByRole('button', { name: 'Upload' }).click();
  const added = rows.filter({ has: page.getByText('Done', { exact: true }) });
  await expect(added).toHaveCount(3, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'scan.html' })).toContainText('2 lines added to the image scan');
  // The badge shows its whole word, not "D…".
  const badge = rows.filter({ hasText: 'scan.png' }).getByText('Done', { exact: true });
  expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await upload.getByRole('button', { name: 'Close' }).click();

  // Sort says what it did.
  await page.getByRole('button', { name: 'Actions for E2E First look' }).click();
  await page.getByRole('menuitem', { name: 'Sort' }).click();
  await expect(page.getByText('E2E First look is sorted by name: 2 sub-sets and images in order.')).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Imagesets and images' });
  await expect(tree.getByRole('link').nth(1)).toHaveText('b leaf');

  // Every image of the set in one table that scrolls sideways rather than squeezing its columns.
  await page.getByRole('link', { name: 'All document images' }).click();
  const table = page.getByRole('table', { name: 'Document images' });
  await expect(table.getByRole('cell', { name: 'scan', exact: true })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'tesseractText' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'iiifManifestUri' })).toHaveCount(0);
  await page.setViewportSize({ width: 1000, height: 800 });
  expect(await table.evaluate((el) => el.scrollWidth > (el.parentElement?.clientWidth ?? Infinity))).toBe(true);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(page.getByRole('link', { name: 'Back to E2E First look' })).toBeVisible();

  // The Analyze Image menu leads to a choice, not an error.
  await page.getByRole('link', { name: 'Analyze Image' }).click();
  await expect(page.getByRole('heading', { name: 'Analyze Image' })).toBeVisible();
  await expect(page.getByText(/Expected property/)).toHaveCount(0);
  await page.getByLabel('Imageset').fill('First look');
  await page.getByRole('option', { name: 'E2E First look' }).click();
  await page.getByLabel('Image', { exact: true }).click();
  await page.getByRole('option', { name: 'scan' }).click();
  const tiles = page.waitForResponse((r) => r.url().includes('/iiif/3/') && r.url().endsWith('.jpg') && r.status() === 200);
  await page.getByRole('button', { name: 'Open in the viewer' }).click();
  await expect(page).toHaveURL(/\/pim\/analyzeimage\?id=/);
  await tiles;
  await expect(page.locator('.openseadragon-canvas')).toBeVisible();
});

test("a reader is shown what is missing rather than told to log in; the host's ACL editor starts empty after Add", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const hostPage = await (await browser.newContext()).newPage();
  await signIn(hostPage, HOST, '/pim/imagesets');
  const hostToken = await sessionToken(hostPage);
  const asHost = { authorization: `Google ${hostToken}` };
  const setId = await createImageSet(request, hostToken, 'E2E Open letters');
  const published = await request.post('/api/pim/documentimageset/update', {
    headers: asHost,
    data: { uuid: setId, imageset: 'E2E Open letters', publicDocumentImageSet: true },
  });
  expect(published.status()).toBe(200);
  expect((await request.post('/api/pim/pimgroups/create', { headers: asHost, data: { name: 'E2E Letter readers' } })).status()).toBe(200);

  // A plain user may read the public set: what would fail is disabled and says why.
  const reader = await (await browser.newContext()).newPage();
  await signIn(reader, NEWCOMER, `/pim/imageset?uuid=${setId}`);
  await expect(reader.getByRole('heading', { name: 'E2E Open letters' })).toBeVisible();
  const settings = reader.getByRole('button', { name: 'Imageset settings' });
  await expect(settings).toBeDisabled();
  await settings.hover({ force: true });
  await expect(reader.getByText('You may read this imageset but not change it: that needs WRITE permission on it.')).toBeVisible();
  await reader.getByRole('button', { name: 'Actions for E2E Open letters' }).click();
  await expect(reader.getByRole('menuitem', { name: 'Upload image' })).toBeDisabled();
  await reader.keyboard.press('Escape');

  // Admin screens say which role is missing; nobody tells a signed-in user to log in.
  await reader.goto('/pim/krakenmodels');
  const newModel = reader.getByRole('button', { name: 'New Kraken model' });
  await expect(newModel).toBeDisabled();
  await newModel.hover({ force: true });
  await expect(reader.getByText('This needs the ADMIN role.')).toBeVisible();
  await reader.goto('/pim/pimgroups');
  await expect(reader.getByText('Only administrators can see the groups')).toBeVisible();
  await expect(reader.getByText('This needs the ADMIN role.')).toBeVisible();
  await expect(reader.getByText('you need to log in')).toHaveCount(0);

  // The host adds an entry; the form starts again for the next one.
  await hostPage.goto(`/pim/imageset?uuid=${setId}`);
  await hostPage.getByRole('button', { name: 'Acl editor' }).click();
  const acl = hostPage.getByRole('dialog', { name: 'Acl editor' });
  await expect(acl.getByText(/everyone signed in may read this public set/)).toBeVisible();
  await acl.getByLabel('Group').fill('Letter');
  await hostPage.getByRole('option', { name: 'E2E Letter readers' }).click();
  await acl.getByRole('textbox', { name: 'Role' }).click();
  await hostPage.getByRole('option', { name: 'MEMBER' }).click();
  await acl.getByRole('textbox', { name: 'Permission' }).click();
  await hostPage.getByRole('option', { name: 'WRITE' }).click();
  await acl.getByRole('button', { name: 'Add' }).click();
  await expect(acl.getByRole('table', { name: 'Access control entries' }).getByText('E2E Letter readers')).toBeVisible();
  await expect(acl.getByLabel('Group')).toHaveValue('');
  await expect(acl.getByRole('textbox', { name: 'Role' })).toHaveValue('');
  await expect(acl.getByRole('textbox', { name: 'Permission' })).toHaveValue('');
  await expect(acl.getByRole('button', { name: 'Add' })).toBeDisabled();
});

test('a set its host makes public and published in the settings opens to IIIF viewers elsewhere, without sign-in', async ({ page, request, playwright }) => {
  await signIn(page, HOST, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Shared charters');
  const uploaded = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name: 'charter.png', mimeType: 'image/png', buffer: await pagePng(120, 600, 800) } },
  });
  expect(uploaded.status()).toBe(200);
  const imageId = ((await uploaded.json()) as { documentImages: { uuid: string }[] }).documentImages[0]!.uuid;

  // A viewer on another site, with no session.
  const elsewhere = await playwright.request.newContext({ baseURL: new URL(page.url()).origin, extraHTTPHeaders: { origin: 'https://viewer.example.org' } });
  const manifest = () => elsewhere.get(`/api/pim/imageset/${setId}/manifest`);
  expect((await manifest()).status()).toBe(401);

  await page.goto(`/pim/imageset?uuid=${setId}`);
  await page.getByRole('button', { name: 'Imageset settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Imageset settings' });
  await expect(settings.getByText(/anyone may also read its manifest and images through IIIF/)).toBeVisible();
  await settings.getByLabel(/^Public: everyone signed in/).check();
  await settings.getByLabel('Publish', { exact: true }).check();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Imageset is saved successfully!')).toBeVisible();

  const open = await manifest();
  expect(open.status()).toBe(200);
  expect(open.headers()['access-control-allow-origin']).toBe('*');
  const body = (await open.json()) as { items: { id: string }[] };
  expect(body.items).toHaveLength(1);
  const info = await elsewhere.get(`/iiif/3/${imageId}/info.json`);
  expect(info.status()).toBe(200);
  expect(((await info.json()) as { id: string }).id).toBe(`${new URL(page.url()).origin}/iiif/3/${imageId}`);
  await elsewhere.dispose();
});
