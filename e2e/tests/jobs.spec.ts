import fs from 'node:fs';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { JOBBER } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

/** A real 300 dpi scan (Alice, from hocr-tools) beside the checkout (CI has it); the test that needs it skips without. */
const ALICE = path.resolve(import.meta.dirname, '../../../shared/fixtures/hocr/alice_1.png');

/** The limit on a job reaching its end: it ends a hung test, a busy machine may take long to OCR a page. */
const JOB_LIMIT = { timeout: 150_000 };

async function chooseJobType(page: Page, type: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Job type' }).click();
  await page.locator(`[role=option][value="${type}"]`).click();
  await expect(page.getByRole('textbox', { name: 'Job type' })).toHaveValue(type);
}

const jobRow = (page: Page, type: string) => page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: type });

test('a researcher runs Tesseract on a page from the job form, watches it finish, reads the text, and downloads an EPUB of the set', async ({
  page,
  request,
}) => {
  test.skip(!fs.existsSync(ALICE), `needs the shared fixtures beside the checkout: ${ALICE}`);
  await signIn(page, JOBBER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Jobs');

  // The page image goes in through the upload dialog, as a new user's would.
  await page.goto(`/pim/imageset?uuid=${setId}`);
  await page.getByRole('button', { name: 'Actions for E2E Jobs' }).click();
  await page.getByRole('menuitem', { name: 'Upload image' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload to E2E Jobs' });
  await upload.locator('input[type=file]').setInputFiles([{ name: 'alice_1.png', mimeType: 'image/png', buffer: fs.readFileSync(ALICE) }]);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByRole('table', { name: 'Files to upload' }).getByText('Done', { exact: true })).toBeVisible();
  const images = await request.get(`/api/pim/documentimageset/${setId}/documentimages`, { headers: { authorization: `Google ${token}` } });
  const imageId = ((await images.json()) as { results: { uuid: string }[] }).results[0]!.uuid;
  await page.keyboard.press('Escape');
  await expect(upload).toHaveCount(0);

  // From the set's page to the job form, the set filled in; Create waits for a type.
  await page.getByRole('link', { name: 'New job' }).click();
  await expect(page).toHaveURL(new RegExp(`/pim/job\\?imageSet=${setId}$`));
  await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
  await chooseJobType(page, 'Tesseract4Hocr');
  await expect(page.getByRole('textbox', { name: 'Image set' })).toHaveValue('E2E Jobs');
  await expect(page.getByText(/No worker runs/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('The Tesseract4Hocr job is queued.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/jobs$/);

  // The list refreshes by itself until the job is done; nobody reloads the page.
  const ocr = jobRow(page, 'Tesseract4Hocr');
  await expect(ocr.getByRole('link', { name: 'E2E Jobs' })).toBeVisible();
  await expect(ocr.getByText('Done', { exact: true })).toBeVisible(JOB_LIMIT);
  await expect(ocr.getByRole('button')).toHaveText(['Details']);
  await ocr.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: /^Tesseract4Hocr job \d+$/ });
  await expect(details.getByRole('table', { name: 'Run by' })).toContainText('built-in worker');
  await expect(details.getByRole('table', { name: 'Result' })).toContainText('Recognised1');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);

  await page.goto(`/pim/documentimage?uuid=${imageId}`);
  await page.getByRole('tab', { name: /^hOCR/ }).click();
  await expect(page.getByLabel('Clean text')).toContainText('Rabbit');

  // Create Epub on the set's page; the toast leads to the jobs, where the EPUB is downloaded once made.
  await page.goto(`/pim/imageset?uuid=${setId}`);
  await page.getByRole('button', { name: 'Create Epub' }).click();
  await expect(page.getByText('An EPUB of E2E Jobs is being made')).toBeVisible();
  await page.getByRole('link', { name: 'Open Jobs' }).click();
  await expect(page).toHaveURL(/\/pim\/jobs$/);
  const epub = jobRow(page, 'PipelineKB2');
  const download = epub.getByRole('button', { name: 'Download' });
  await expect(download).toBeVisible(JOB_LIMIT);
  const saved = page.waitForEvent('download');
  await download.click();
  expect((await saved).suggestedFilename()).toMatch(/^E2E_Jobs_[0-9a-f-]{36}\.epub$/);
});

test('a job of a type no worker runs says it waits, shows its own record, and is cancelled', async ({ page, request }) => {
  await signIn(page, JOBBER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Waiting');

  await page.goto(`/pim/job?imageSet=${setId}`);
  await chooseJobType(page, 'P2PaLA');
  await expect(page.getByText('No worker runs P2PaLA yet: the job will wait until one is started.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Experiment name' })).toHaveValue('experiment_name');
  const lineColor = page.getByRole('textbox', { name: 'Line color' });
  await lineColor.fill('300');
  await expect(page.getByText('line_color must be at most 255.')).toBeVisible();
  await lineColor.fill('200');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/pim\/jobs$/);

  const waiting = jobRow(page, 'P2PaLA').filter({ hasText: 'E2E Waiting' });
  await expect(waiting.getByText('Waiting for a worker that runs P2PaLA')).toBeVisible();

  // Its own record under Jobs › P2PaLA Jobs, with the settings it was made with.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Jobs', exact: true }).click();
  await page.getByRole('menuitem', { name: 'P2PaLA Jobs' }).click();
  const record = page.getByRole('table', { name: 'P2PaLA Jobs' }).getByRole('row').filter({ hasText: 'E2E Waiting' });
  await expect(record.getByText('Not started')).toBeVisible();
  await record.getByRole('button', { name: 'Config' }).click();
  await expect(page.getByRole('dialog', { name: "The job's configuration" })).toContainText('"line_color": 200');
  await page.keyboard.press('Escape');

  await page.goto('/pim/jobs');
  await waiting.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('The P2PaLA job is cancelled.')).toBeVisible();
  await expect(waiting.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(waiting.getByRole('button')).toHaveText(['Details']);
});
