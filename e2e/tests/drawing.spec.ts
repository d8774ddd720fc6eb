import { expect, test } from '@playwright/test';
import { DRAFTER } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

test('a researcher draws a polygon and a line on a page, saves them and finds them again', async ({ page, request }) => {
  await signIn(page, DRAFTER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Drawing');
  const uploaded = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name: 'folio 7.png', mimeType: 'image/png', buffer: await pagePng(180, 1200, 1600) } },
  });
  expect(uploaded.status()).toBe(200);
  const imageId = ((await uploaded.json()) as { documentImages: { uuid: string }[] }).documentImages[0]!.uuid;

  await page.goto(`/pim/documentimage?uuid=${imageId}`);
  await page.getByText('Draw', { exact: true }).click();
  const surface = page.getByRole('group', { name: 'Drawing on folio 7' });
  await expect(surface).toBeVisible();
  // The page is fitted into the 1200 px surface and shown at 0.91 of that.
  expect((await surface.boundingBox())!.height).toBeCloseTo(1200 * 0.91, 0);
  await expect(page.getByRole('radio', { name: 'Region' })).toBeChecked();

  // A region: three clicks and Enter.
  await surface.click({ position: { x: 60, y: 60 } });
  await surface.click({ position: { x: 600, y: 60 } });
  await surface.click({ position: { x: 600, y: 300 } });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('img', { name: 'Polygon 1: Region' })).toBeVisible();

  // A baseline: the Line tool, its class, two clicks and Enter.
  await page.getByText('Line', { exact: true }).click();
  await page.getByText('Baseline', { exact: true }).click();
  await surface.click({ position: { x: 80, y: 200 } });
  await surface.click({ position: { x: 560, y: 210 } });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('img', { name: 'Line 2: Baseline' })).toBeVisible();

  // Ctrl+Z removes the last line; drawn again, both are saved.
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('img', { name: 'Line 2: Baseline' })).toHaveCount(0);
  await surface.click({ position: { x: 80, y: 200 } });
  await surface.click({ position: { x: 560, y: 210 } });
  await page.keyboard.press('Enter');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await test.info().attach('the drawing tool', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Drawing saved: 2 shapes.')).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // After a reload the tool opens again (the address keeps it) with both shapes.
  await page.reload();
  const shapes = page.getByRole('img', { name: /^(Polygon|Line) \d+: / });
  await expect(shapes).toHaveCount(2);
  await expect(page.getByRole('img', { name: 'Polygon 1: Region' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Line 2: Baseline' })).toBeVisible();

  // The same drawing on its own page.
  await page.goto(`/pim/polygon?uuid=${imageId}`);
  await expect(page.getByRole('heading', { name: 'Polygons and lines: folio 7' })).toBeVisible();
  await expect(shapes).toHaveCount(2);
});
