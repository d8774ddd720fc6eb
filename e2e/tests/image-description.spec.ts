import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { DESCRIBER } from '../accounts';
import { printedPage } from './files';
import { signIn } from './helpers';

/** An English printed page of 24 lines (the server tests describe the real scans of the shared fixtures). */
const ENGLISH = [
  'The register of the town council was kept in the',
  'old chest in the vestry for more than three hundred',
  'years, and every clerk who took the key wrote his',
  'name on the inside of the lid before he began the',
  'work of the year. The first pages record the price',
  'of bread and of candles, the names of the watchmen',
  'and the days on which the bridge was closed because',
  'the river had risen over the lower road. Later hands',
  'added the accounts of the poor house, the letters',
  'sent to the bishop about the new school, and a long',
  'list of the houses that burned in the great fire of',
  'the winter, with the families who lived in each of',
  'them and what the council gave them to build again.',
  'Some entries are written in haste and are hard to',
  'read, others were copied out later in a fair hand,',
  'and a few were crossed out and written once more',
  'when the council changed its mind about a matter.',
  'The last clerk closed the book in the spring of the',
  'year when the town hall was built, and the register',
  'was carried there with the other books and papers,',
  'where it stayed until the archive was opened to the',
  'public and scholars began to read it once again for',
  'what it tells of daily life in a small town and of',
  'the people whose names would otherwise be forgotten.',
];

/** The limit on the descriptions arriving: it ends a hung test; a busy machine may take a while to read a page. */
const DESCRIBED = { timeout: 120_000 };

test('an archivist describes a printed page, a blank one and a file that is no image, one after another', async ({ page }) => {
  const printed = await printedPage(ENGLISH);
  const blank = await sharp({ create: { width: 1200, height: 1700, channels: 3, background: { r: 246, g: 240, b: 226 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ density: 300 })
    .toBuffer();
  await signIn(page, DESCRIBER, '/pim/imagedescription');
  await expect(page.getByRole('heading', { name: 'Image description' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Analyze' })).toBeDisabled();

  // The picker offers images; a text file chosen anyway goes to the server, which says why it refuses it.
  await page.getByLabel('Describe images...').setInputFiles([
    { name: 'register-1.png', mimeType: 'image/png', buffer: printed.png },
    { name: 'endpaper.jpg', mimeType: 'image/jpeg', buffer: blank },
    { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Notes on the charters, not a picture of them.\n') },
  ]);
  const card = (name: string) => page.getByRole('listitem', { name });
  await expect(card('register-1.png').getByText('Waiting', { exact: true })).toBeVisible();
  await expect(card('register-1.png').getByRole('img', { name: 'Thumbnail of register-1.png' })).toBeVisible();

  await page.getByRole('button', { name: 'Analyze 3 images' }).click();
  // While the images are described, one after another, the button stays disabled.
  await expect(page.getByText(/^Analyzing image [123] of 3…$/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Analyze/ })).toBeDisabled();

  const register = card('register-1.png');
  await expect(register.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(register).toContainText('1,654 × 2,339 pixels (the file states no resolution), portrait');
  await expect(register).toContainText(`about ${ENGLISH.length} lines in one column`);
  await expect(register).toContainText(/Language:\s*English/);
  await expect(register).toContainText('The register of the town council');

  const endpaper = card('endpaper.jpg');
  await expect(endpaper.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(endpaper).toContainText('1,200 × 1,700 pixels at 300 dpi');
  await expect(endpaper).toContainText('a blank page');

  const notes = card('notes.jpg');
  await expect(notes.getByText('Done', { exact: true })).toBeVisible(DESCRIBED);
  await expect(notes).toContainText('Unexpected server response: This file is not an image PIM can describe: send a JPEG, PNG, TIFF or WebP image.');
  await expect(notes.getByText('No preview')).toBeVisible();

  // Nothing waits any more: Analyze has nothing to do.
  await expect(page.getByRole('button', { name: 'Analyze', exact: true })).toBeDisabled();
});
