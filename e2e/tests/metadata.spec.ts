import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ANNOTATOR } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

/** One field of every type after the fixed two; the script field keeps its value from page to page. */
const FIELDS = [
  { label: 'Has decoration', name: 'decorated', type: 'Checkbox' },
  { label: 'Dated', name: 'dated', type: 'Date' },
  { label: 'Compare with', name: 'compareWith', type: 'Document image' },
  { label: 'Lines', name: 'lines', type: 'Number' },
  { label: 'Described by', name: 'describedBy', type: 'User' },
  { label: 'Script', name: 'script', type: 'Script type', copyValue: true },
  { label: 'Material', name: 'material', type: 'Select', values: ['parchment', 'paper'] },
  { label: 'Hand', name: 'hand', type: 'Text' },
  { label: 'Notes', name: 'notes', type: 'Notes' },
];

async function chooseOption(page: Page, input: ReturnType<Page['getByLabel']>, option: string) {
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function addField(page: Page, number: number, field: (typeof FIELDS)[number]) {
  await page.getByRole('button', { name: 'Add field' }).click();
  const card = page.getByRole('group', { name: `Field ${number}`, exact: true });
  await card.getByRole('textbox', { name: 'Label', exact: true }).fill(field.label);
  await card.getByRole('textbox', { name: 'Name', exact: true }).fill(field.name);
  await chooseOption(page, card.getByRole('textbox', { name: 'Type' }), field.type);
  if (field.copyValue) await card.getByLabel('Copy value').check();
  for (const [i, value] of (field.values ?? []).entries()) {
    if (i > 0) await card.getByRole('button', { name: 'Add value' }).click();
    await card.getByRole('textbox', { name: `Value ${i + 1}`, exact: true }).fill(value);
  }
}

test('a researcher builds a field set, describes three pages, exports the CSV and finds the dataset again', async ({ page, request }) => {
  await signIn(page, ANNOTATOR, '/pim/pimfieldsets');
  const token = await sessionToken(page);

  // The field set, through its editor: the fixed fields first, then one of every type.
  await page.getByRole('link', { name: 'New field set' }).click();
  await expect(page.getByRole('group', { name: 'Field 1', exact: true }).getByRole('textbox', { name: 'Label', exact: true })).toHaveValue('uri');
  await expect(page.getByRole('button', { name: 'Remove field 1' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove field 2' })).toHaveCount(0);
  await page.getByLabel('Field set name').fill('E2E Codicology');
  for (const [i, field] of FIELDS.entries()) await addField(page, i + 3, field);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Fieldset is saved successfully.')).toBeVisible();
  await expect(page).toHaveURL(/pimfieldsetedit\?uuid=/);

  // A set of three pages, uploaded through the API.
  const setId = await createImageSet(request, token, 'E2E Annotated letters');
  for (const hue of [30, 120, 210]) {
    const res = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
      headers: { authorization: `Google ${token}` },
      multipart: { filepond: { name: `page-${hue}.png`, mimeType: 'image/png', buffer: await pagePng(hue, 600, 800) } },
    });
    expect(res.status()).toBe(200);
  }

  // From the image sets list to the annotator, choosing the field set.
  await page.goto('/pim/imagesets');
  const row = page.getByRole('row', { name: /E2E Annotated letters/ });
  await row.getByRole('link', { name: 'Analyze manually' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a field set' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await page.getByLabel('Field set').click();
  await page.getByRole('option', { name: 'E2E Codicology' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/analyzeimagemanual\?uri=.+&fieldsetid=/);
  await expect(page.getByText('Image 1 of 3')).toBeVisible();
  await expect(page.getByTestId('image-viewer')).toBeVisible();

  // Page 1: a value in every kind of input.
  const form = page.getByRole('group', { name: 'Metadata of this image' });
  const uriOfPage1 = await form.getByLabel('uri', { exact: true }).inputValue();
  expect(uriOfPage1).toMatch(/\/iiif\/3\/[0-9a-f-]{36}$/);
  await expect(form.getByLabel('Dataset uri')).toHaveValue(/\/api\/pim\/imageset\/[0-9a-f-]{36}\/manifest$/);
  await form.getByLabel('Has decoration').check();
  await form.getByLabel('Dated').fill('1623-05-14');
  await form.getByLabel('Lines').fill('27');
  await form.getByLabel('Described by').click();
  await page.getByRole('option', { name: ANNOTATOR.name }).click();
  await chooseOption(page, form.getByRole('textbox', { name: 'Script' }), 'Humanistic_Cursive');
  await chooseOption(page, form.getByRole('textbox', { name: 'Material' }), 'parchment');
  await form.getByLabel('Hand').fill('Scribe A, "the careful one"');
  await form.getByLabel('Notes').fill('Folded, sealed; ink faded\nΣημείωση – 注記');
  await page.getByRole('button', { name: /^Next/ }).click();

  // Page 2: the script is carried (copyValue), the other fields start empty.
  await expect(page.getByText('Image 2 of 3')).toBeVisible();
  await expect(page).toHaveURL(/imageUri=/);
  await expect(form.getByRole('textbox', { name: 'Script' })).toHaveValue('Humanistic_Cursive');
  await expect(form.getByLabel('Lines')).toHaveValue('');
  await expect(form.getByLabel('Hand')).toHaveValue('');
  await expect(form.getByLabel('Has decoration')).not.toBeChecked();
  await form.getByLabel('Lines').fill('31');
  // The keyboard shortcut for Next works from inside an input.
  await form.getByLabel('Hand').fill('Scribe B');
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByText('Image 3 of 3')).toBeVisible();
  await form.getByLabel('Lines').fill('12');
  await page.getByRole('button', { name: /^Next/ }).click();
  await expect(page.getByText('You have reached the end of the manuscript.')).toBeVisible();
  await expect(page.getByText('Image 3 of 3')).toBeVisible();

  // Back to page 1: its stored values are loaded again, and a reload keeps the place.
  await page.getByRole('button', { name: /^Previous/ }).click();
  await expect(page.getByText('Image 2 of 3')).toBeVisible();
  await expect(form.getByLabel('Hand')).toHaveValue('Scribe B');
  await page.getByRole('button', { name: /^Previous/ }).click();
  await expect(page.getByText('Image 1 of 3')).toBeVisible();
  await expect(form.getByLabel('Lines')).toHaveValue('27');
  await page.reload();
  await expect(page.getByText('Image 1 of 3')).toBeVisible();
  await expect(form.getByLabel('Hand')).toHaveValue('Scribe A, "the careful one"');
  await expect(form.getByLabel('Has decoration')).toBeChecked();
  await expect(form.getByLabel('Dated')).toHaveValue('1623-05-14');
  await page.getByRole('button', { name: /^Previous/ }).click();
  await expect(page.getByText('You have reached the beginning of the manuscript.')).toBeVisible();

  // The overview: a row per page, a column per field.
  await page.getByRole('link', { name: 'Metadata overview' }).click();
  await expect(page.getByRole('heading', { name: 'Metadata Overview' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Lines' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /Scribe A/ })).toContainText(ANNOTATOR.name);

  // The CSV: header of field names, values quoted as RFC 4180 says, UTF-8.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('metadata.csv');
  const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('uri,datasetUri,decorated,dated,compareWith,lines,describedBy,script,material,hand,notes');
  expect(csv).toContain(`${uriOfPage1},`);
  expect(csv).toContain(',true,1623-05-14,,27,Anna Annotator,Humanistic_Cursive,parchment,"Scribe A, ""the careful one""","Folded, sealed; ink faded\nΣημείωση – 注記"');
  expect(csv).toContain(',31,,Humanistic_Cursive,,Scribe B,');

  // Continue analyzing goes back to where the user was.
  await page.getByRole('link', { name: 'Continue analyzing' }).click();
  await expect(page.getByText('Image 1 of 3')).toBeVisible();

  // The annotated datasets tree leads back into the annotator at an image.
  await page.goto('/pim/annotateddatasets');
  await page.getByRole('button', { name: 'Open E2E Annotated letters' }).click();
  const images = page.getByRole('button', { name: /^Open image / });
  await expect(images).toHaveCount(3);
  await images.nth(1).click();
  await page.getByRole('link', { name: 'E2E Codicology', exact: true }).click();
  await expect(page).toHaveURL(/analyzeimagemanual\?.*imageUri=/);
  await expect(form.getByLabel('Lines')).not.toHaveValue('');
});
