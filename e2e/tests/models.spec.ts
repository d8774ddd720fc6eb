import { expect, test, type Page } from '@playwright/test';
import { MODELER } from '../accounts';
import { sessionToken, signIn } from './helpers';
import type { ModelKind } from '@pim/contract';
import { modelFileFor } from '../../server/src/test-support/model-files';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Chooses a valid file of the kind in the form's file picker, which hides its native input behind a button. */
async function chooseModelFile(page: Page, kind: ModelKind): Promise<void> {
  const { fileName, bytes } = await modelFileFor(kind);
  await page.locator('input[type="file"]').setInputFiles({ name: fileName, mimeType: 'application/octet-stream', buffer: bytes });
}

test('an admin uploads a Laypa model, reads its configuration, makes it public, downloads it from both pages and deletes it', async ({ page }) => {
  await signIn(page, MODELER, '/pim/laypamodels');
  await expect(page.getByRole('heading', { name: 'Laypa models' })).toBeVisible();

  await page.getByRole('link', { name: 'New Laypa model' }).click();
  await expect(page).toHaveURL(/\/pim\/laypamodel$/);
  await expect(page.getByRole('heading', { name: 'Laypa model' })).toBeVisible();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Give the model a label.')).toBeVisible();
  await expect(page.getByText('Choose the model file.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Label' }).fill('E2E baseline regions');
  await chooseModelFile(page, 'laypa');
  await page.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/pim\/laypamodels/);
  const table = page.getByRole('table', { name: 'Laypa models' });
  const row = table.getByRole('row').filter({ hasText: 'E2E baseline regions' });
  await expect(row).toBeVisible();
  await row.getByText('E2E baseline regions').click();
  await expect(page).toHaveURL(/\/pim\/laypamodel\?uuid=/);
  const uuid = new URL(page.url()).searchParams.get('uuid')!;
  expect(uuid).toMatch(UUID);

  // The yaml's settings, nested objects and lists included, and the owner by name.
  const properties = page.getByRole('table', { name: 'Model properties' });
  const value = (scope: typeof properties, name: string) => scope.getByRole('row', { name: new RegExp(`^${name}\\b`) }).first().getByRole('cell').first();
  await expect(value(properties, 'Owner')).toHaveText(MODELER.name);
  await expect(value(properties, 'Public')).toHaveText('No');
  await expect(value(properties, 'NAME')).toHaveText('baseline');
  await expect(value(properties.getByRole('table', { name: 'MODEL' }), 'META_ARCHITECTURE')).toHaveText('SemanticSegmentor');
  await expect(properties.getByRole('list', { name: 'REGIONS' }).getByRole('listitem')).toHaveText(['paragraph', 'marginalia']);

  const fromDetail = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await fromDetail).suggestedFilename()).toBe(`layparmodel_${uuid}.zip`);

  await page.getByRole('button', { name: 'Make public' }).click();
  await expect(page).toHaveURL(/\/pim\/laypamodels/);
  await row.getByText('E2E baseline regions').click();
  await expect(value(properties, 'Public')).toHaveText('Yes');
  await expect(page.getByRole('button', { name: 'Make public' })).toBeHidden();
  await page.getByRole('button', { name: 'Make private' }).click();
  await expect(page).toHaveURL(/\/pim\/laypamodels/);

  const fromList = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  expect((await fromList).suggestedFilename()).toBe(`laypamodel_${uuid}.zip`);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await row.getByRole('button', { name: `Copy UUID ${uuid}` }).click();
  await expect(page.getByText('UUID copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(uuid);
  await expect(page).toHaveURL(/\/pim\/laypamodels/);

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete model' });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(row).toHaveCount(0);
  await page.goto(`/pim/laypamodel?uuid=${uuid}`);
  await expect(page.getByText('The model could not be loaded')).toBeVisible();
});

interface FormKind {
  list: string;
  title: string;
  newButton: string;
  nameField: 'Title' | 'Label';
  kind: ModelKind;
  /** The row's cells after the name, before the UUID. */
  cells: string[];
}

const FORM_KINDS: FormKind[] = [
  { list: 'krakenmodels', title: 'Kraken models', newButton: 'New Kraken model', nameField: 'Title', kind: 'kraken', cells: ['Dutch'] },
  { list: 'tesseract4models', title: 'Tesseract 4 models', newButton: 'New Tesseract 4 model', nameField: 'Title', kind: 'tesseract4', cells: ['Dutch'] },
  { list: 'loghihtrmodels', title: 'Loghi HTR models', newButton: 'New Loghi HTR model', nameField: 'Label', kind: 'loghihtr', cells: ['No', MODELER.name] },
  { list: 'p2palamodels', title: 'P2PaLA models', newButton: 'New P2PaLA model', nameField: 'Label', kind: 'p2pala', cells: [] },
  { list: 'pylaiamodels', title: 'Pylaia models', newButton: 'New Pylaia model', nameField: 'Label', kind: 'pylaia', cells: [] },
  { list: 'siamesenetworkmodels', title: 'Siamese network models', newButton: 'New Siamese network model', nameField: 'Label', kind: 'siamesenetwork', cells: [] },
];

test('an admin creates a model of each other kind through its form and finds it in its list', async ({ page }) => {
  await signIn(page, MODELER, '/pim/krakenmodels');
  for (const kind of FORM_KINDS) {
    const name = `E2E ${kind.title.replace(/ models$/, '')} model`;
    await page.goto(`/pim/${kind.list}`);
    await expect(page.getByRole('heading', { name: kind.title })).toBeVisible();
    await page.getByRole('link', { name: kind.newButton }).click();
    await page.getByRole('textbox', { name: kind.nameField }).fill(name);
    if (kind.cells.includes('Dutch')) {
      await page.getByRole('textbox', { name: 'Language' }).fill('Dutch');
      await page.getByRole('option', { name: 'Dutch (nld)' }).click();
    }
    await chooseModelFile(page, kind.kind);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(new RegExp(`/pim/${kind.list}`));
    const row = page.getByRole('table', { name: kind.title }).getByRole('row').filter({ hasText: name });
    await expect(row.getByRole('cell')).toHaveText([name, ...kind.cells, UUID, 'DeleteDownload']);
  }
});

test('a Loghi line detection model sent through the API appears in its list, downloads and is deleted', async ({ page, request }) => {
  await signIn(page, MODELER, '/pim/loghilinedetectionmodels');
  const token = await sessionToken(page);
  const lines = await modelFileFor('loghilinedetection');
  const created = await request.post('/api/pim/loghilinedetection/model', {
    headers: { authorization: `Google ${token}` },
    multipart: { label: 'E2E line detection', file: { name: lines.fileName, mimeType: 'application/zip', buffer: lines.bytes } },
  });
  expect(created.status()).toBe(201);
  const { uuid } = (await created.json()) as { uuid: string };

  await page.reload();
  await expect(page.getByRole('link', { name: /^New / })).toHaveCount(0);
  const row = page.getByRole('table', { name: 'Loghi line detection models' }).getByRole('row').filter({ hasText: 'E2E line detection' });
  await expect(row.getByRole('cell')).toHaveText(['E2E line detection', uuid, 'DeleteDownload']);
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe(`loghilinedetectionmodel_${uuid}.zip`);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete model' }).getByRole('button', { name: 'Yes' }).click();
  await expect(row).toHaveCount(0);
});
