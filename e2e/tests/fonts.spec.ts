import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN } from '../accounts';
import { testFont } from '../../server/src/test-support/font-files';
import { sessionToken, signIn } from './helpers';

test('an admin adds a font description with its file, downloads it as {uuid}.ttf and changes it with the URI locked', async ({ page, request }) => {
  await signIn(page, ADMIN, '/pim/fontdescriptions');
  await expect(page.getByRole('heading', { name: 'Font descriptions' })).toBeVisible();
  const font = testFont({ family: 'E2E Junicode', fullName: 'E2E Junicode Regular' });
  const uri = `https://fonts.example.org/e2e-junicode-${Date.now()}`;

  // A file that is not a font is refused with the server's words, and nothing is saved.
  await page.getByRole('link', { name: 'New font description' }).click();
  await expect(page.getByRole('heading', { name: 'New font description' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByRole('textbox', { name: 'URI' }).fill(uri);
  await page.locator('input[type="file"]').setInputFiles({ name: 'notes.ttf', mimeType: 'font/ttf', buffer: Buffer.from('Not a font at all') });
  await save.click();
  await expect(page.getByText('This file is not a font: upload a TrueType (.ttf) or OpenType (.otf) font file.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/fontdescription$/);

  // The real font: the name is read from it, the type too.
  await page.getByRole('textbox', { name: 'License' }).fill('SIL Open Font License 1.1');
  await page.getByRole('switch', { name: 'Serif' }).click({ force: true });
  await page.locator('input[type="file"]').setInputFiles({ name: 'E2E-Junicode.ttf', mimeType: 'font/ttf', buffer: font });
  await save.click();
  await expect(page.getByText('Font description is saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/fontdescriptions/);
  const table = page.getByRole('table', { name: 'Font descriptions' });
  const row = table.getByRole('row').filter({ hasText: uri });
  await expect(row).toContainText('E2E Junicode Regular');
  await expect(row).toContainText('TrueType');

  // Download from the list: named {uuid}.ttf, the very bytes uploaded.
  await row.getByText('E2E Junicode Regular').click();
  await expect(page.getByRole('heading', { name: 'Font description' })).toBeVisible();
  const uuid = new URL(page.url()).searchParams.get('uuid')!;
  expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
  await page.getByRole('link', { name: 'Back to the font descriptions' }).click();
  const fromList = page.waitForEvent('download');
  await table.getByRole('button', { name: 'Download E2E Junicode Regular' }).click();
  const listDownload = await fromList;
  expect(listDownload.suggestedFilename()).toBe(`${uuid}.ttf`);
  expect(fs.readFileSync(await listDownload.path()).equals(font)).toBe(true);

  // The form: URI read-only, no file picker; the other fields change.
  await table.getByRole('row').filter({ hasText: uri }).getByText('E2E Junicode Regular').click();
  const uriInput = page.getByRole('textbox', { name: 'URI' });
  await expect(uriInput).toHaveValue(uri);
  await expect(uriInput).toHaveAttribute('readonly', '');
  await expect(page.getByText('The URI cannot be changed once the font description is saved.')).toBeVisible();
  await expect(page.locator('input[type="file"]')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'License' })).toHaveValue('SIL Open Font License 1.1');
  const fromForm = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await fromForm).suggestedFilename()).toBe(`${uuid}.ttf`);

  await page.getByRole('textbox', { name: 'Name' }).fill('E2E Junicode (edited)');
  await page.getByRole('switch', { name: 'Handwritten' }).click({ force: true });
  await page.getByRole('button', { name: 'Save' }).click();
  // The toast of the first save may still be showing.
  await expect(page.getByText('Font description is saved successfully!').last()).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/fontdescriptions/);
  const edited = table.getByRole('row').filter({ hasText: uri });
  await expect(edited).toContainText('E2E Junicode (edited)');

  // The server keeps the URI locked too.
  const auth = { authorization: `Google ${await sessionToken(page)}` };
  const moved = await request.put(`/api/pim/fontdescription/${uuid}`, {
    headers: auth,
    data: {
      uri: 'https://fonts.example.org/elsewhere',
      name: 'Moved',
      type: 'TrueType',
      license: '',
      handwritten: false,
      containsLongS: false,
      containsLigatures: false,
      romanScript: false,
      serif: false,
    },
  });
  expect(moved.status()).toBe(400);
  expect(((await moved.json()) as { message: string }).message).toBe('The URI of a font description cannot be changed once it is saved.');
  const stored = (await (await request.get(`/api/pim/fontdescription/${uuid}`, { headers: auth })).json()) as { uri: string; handwritten: boolean; serif: boolean };
  expect(stored).toMatchObject({ uri, handwritten: true, serif: true });

  // Delete after Yes: the row and the file are gone.
  await edited.getByRole('button', { name: 'Delete E2E Junicode (edited)' }).click();
  await page.getByRole('dialog', { name: 'Delete font description' }).getByRole('button', { name: 'Yes' }).click();
  await expect(table.getByRole('row').filter({ hasText: uri })).toHaveCount(0);
  expect((await request.get(`/api/pim/fontdescription/${uuid}/binary`, { headers: auth })).status()).toBe(404);
});
