import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DESCRIBER } from '../accounts';
import { signIn } from './helpers';

/** Real scans beside the checkout (CI has them): a German Fraktur print and an English one; the test skips without. */
const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const KANT = path.join(FIXTURES, 'page/kant1784/data/OCR-D-IMG/INPUT_0017.tif');
const ALICE = path.join(FIXTURES, 'hocr/alice_1.png');

/** The limit on the descriptions arriving: it ends a hung test; a busy machine may take a while to read two pages. */
const DESCRIBED = { timeout: 120_000 };

test('an archivist describes two scans and a file that is no image, one after another', async ({ page }) => {
  test.skip(![KANT, ALICE].every((f) => fs.existsSync(f)), `needs the shared fixtures beside the checkout: ${FIXTURES}`);
  await signIn(page, DESCRIBER, '/pim/imagedescription');
  await expect(page.getByRole('heading', { name: 'Image description' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Analyze' })).toBeDisabled();

  // The picker offers images; a text file chosen anyway goes to the server, which says why it refuses it.
  await page.getByLabel('Describe images...').setInputFiles([
    { name: 'INPUT_0017.tif', mimeType: 'image/tiff', buffer: fs.readFileSync(KANT) },
    { name: 'alice_1.png', mimeType: 'image/png', buffer: fs.readFileSync(ALICE) },
    { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Notes on the charters, not a picture of them.\n') },
  ]);
  const card = (name: string) => page.getByRole('listitem', { name });
  await expect(card('alice_1.png').getByText('Waiting', { exact: true })).toBeVisible();
  await expect(card('alice_1.png').getByRole('img', { name: 'Thumbnail of alice_1.png' })).toBeVisible();

  await page.getByRole('button', { name: 'Analyze 3 images' }).click();
  // While the images are described, one after another, the button stays disabled.
  await expect(page.getByText(/^Analyzing image [123] of 3…$/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Analyze/ })).toBeDisabled();

  const kant = card('INPUT_0017.tif');
  await expect(kant.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(kant).toContainText('1,457 × 2,083 pixels at 300 dpi');
  await expect(kant).toContainText(/Text:\s*about \d+ lines in one column/);
  await expect(kant).toContainText(/Script:\s*Fraktur/);
  await expect(kant).toContainText(/Language:\s*German/);

  const alice = card('alice_1.png');
  await expect(alice.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(alice).toContainText('2,488 × 3,507 pixels');
  await expect(alice).toContainText(/Text:\s*about \d+ lines in one column/);
  await expect(alice).toContainText(/Script:\s*Latin/);
  await expect(alice).toContainText(/Language:\s*English/);
  await expect(alice).toContainText('Alice was beginning to get very tired');

  const notes = card('notes.jpg');
  await expect(notes.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(notes).toContainText('Unexpected server response: This file is not an image PIM can describe: send a JPEG, PNG, TIFF or WebP image.');
  await expect(notes.getByText('No preview')).toBeVisible();

  // Nothing waits any more: Analyze has nothing to do.
  await expect(page.getByRole('button', { name: 'Analyze', exact: true })).toBeDisabled();
});
