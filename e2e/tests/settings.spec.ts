import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

/** The data table row that holds `text`. */
const row = (page: Page, table: string, text: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

test('an admin creates, edits and deletes a configuration; a taken key is refused', async ({ page }) => {
  await signIn(page, ADMIN, '/pim/configurations');
  await expect(page.getByRole('heading', { name: 'Configurations' })).toBeVisible();

  await page.getByRole('link', { name: 'New configuration' }).click();
  await expect(page.getByRole('heading', { name: 'New configuration' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enter a key.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Key' }).fill('e2e.mail.host');
  await page.getByLabel('Value').fill('smtp.example.org');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Configuration is saved successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/configurations$/);
  await expect(row(page, 'Configurations', 'e2e.mail.host')).toContainText('smtp.example.org');

  // The same key again: the server's 409 in a toast, and the form stays.
  await page.getByRole('link', { name: 'New configuration' }).click();
  await expect(page.getByRole('heading', { name: 'New configuration' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Key' }).fill('e2e.mail.host');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('A configuration with the key "e2e.mail.host" already exists: edit that one or choose another key.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/configuration$/);

  // Edit through a row click.
  await page.goto('/pim/configurations');
  await row(page, 'Configurations', 'e2e.mail.host').getByText('e2e.mail.host').click();
  await expect(page.getByRole('heading', { name: 'Update configuration' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Key' })).toHaveValue('e2e.mail.host');
  await page.getByLabel('Value').fill('mail.example.org');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/pim\/configurations$/);
  await expect(row(page, 'Configurations', 'e2e.mail.host')).toContainText('mail.example.org');

  // Delete, after the question.
  await row(page, 'Configurations', 'e2e.mail.host').getByRole('button', { name: 'Delete e2e.mail.host' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete configuration' });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Configuration is deleted.')).toBeVisible();
  await expect(row(page, 'Configurations', 'e2e.mail.host')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Configurations' })).toBeVisible();
  await expect(row(page, 'Configurations', 'e2e.mail.host')).toHaveCount(0);
});

test('an admin creates a search index and sees the image sets that use it', async ({ page, request }) => {
  await signIn(page, ADMIN, '/pim/elasticsearchindices');
  const auth = { authorization: `Google ${await sessionToken(page)}` };
  await page.getByRole('link', { name: 'New index' }).click();
  const title = page.getByLabel('Title');
  await title.fill('E2E Letters');
  await expect(page.getByText('A search index name must be in lower case.')).toBeVisible();
  await title.fill('e2e-settings-letters');
  await expect(page.getByText('A search index name must be in lower case.')).toBeHidden();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Elasticsearch index is saved successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/elasticsearchindices$/);
  await expect(row(page, 'Elasticsearch indices', 'e2e-settings-letters')).toBeVisible();

  // A set is put into the index in its settings.
  const index = ((await (await request.get('/api/pim/elasticsearchindex', { headers: auth })).json()) as { uuid: string; name: string }[]).find(
    (i) => i.name === 'e2e-settings-letters',
  )!;
  const setId = await createImageSet(request, auth.authorization.slice('Google '.length), 'E2E Indexed Letters');
  const saved = await request.post('/api/pim/documentimageset/update', {
    headers: auth,
    data: { uuid: setId, imageset: 'E2E Indexed Letters', elasticSearchIndex: { uuid: index.uuid } },
  });
  expect(saved.status()).toBe(200);

  await row(page, 'Elasticsearch indices', 'e2e-settings-letters').getByText('e2e-settings-letters').click();
  await expect(page).toHaveURL(new RegExp(`/pim/elasticsearchindex\\?uuid=${index.uuid}$`));
  await expect(page.getByLabel('Title')).toHaveValue('e2e-settings-letters');
  const sets = page.getByRole('list', { name: 'Image sets using this index' });
  await sets.getByRole('link', { name: 'E2E Indexed Letters' }).click();
  await expect(page).toHaveURL(new RegExp(`/pim/imageset\\?uuid=${setId}$`));
});

test('an admin configures an environment with its switches and gets its Apache configuration', async ({ page, request }) => {
  await signIn(page, ADMIN, '/pim/environments');
  const auth = { authorization: `Google ${await sessionToken(page)}` };
  expect((await request.post('/api/pim/elasticsearchindex', { headers: auth, data: { name: 'e2e-prize-papers' } })).status()).toBe(200);

  await page.getByRole('link', { name: 'New environment' }).click();
  await expect(page.getByRole('heading', { name: 'New environment' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill('E2E Prize papers');
  await page.getByRole('textbox', { name: 'path' }).fill('e2e-prize');
  await page.getByRole('textbox', { name: 'address' }).fill('https://prize.example.org');
  await page.getByRole('textbox', { name: 'elasticSearchIndex' }).fill('e2e-prize');
  await page.getByRole('option', { name: 'e2e-prize-papers' }).click();
  await page.getByRole('textbox', { name: 'searchLabel' }).fill('Search the prize papers');
  for (const name of ['persons', 'prizePapers', 'publish']) await page.getByRole('switch', { name, exact: true }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Environment is saved successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/pim\/environments$/);
  await expect(row(page, 'Environments', 'E2E Prize papers')).toContainText('e2e-prize-papers');

  await row(page, 'Environments', 'E2E Prize papers').getByText('E2E Prize papers').click();
  await expect(page.getByRole('heading', { name: 'Update environment' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'searchLabel' })).toHaveValue('Search the prize papers');
  for (const name of ['persons', 'prizePapers', 'publish']) await expect(page.getByRole('switch', { name })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'day' })).not.toBeChecked();
  await expect(page.getByRole('textbox', { name: 'domain' })).toHaveValue('prize.example.org');
  const config = page.getByRole('textbox', { name: 'generateApacheConfig' });
  await expect(config).toHaveJSProperty('readOnly', true);
  const text = await config.inputValue();
  expect(text).toContain('<VirtualHost *:80>\n    ServerName prize.example.org\n');
  expect(text).toContain(`    ProxyPass /e2e-prize/api/ http://localhost:${new URL(page.url()).port}/api/pim/elastic/e2e-prize-papers/\n`);
  expect(text).toContain('    Alias /e2e-prize /var/www/pim-search/e2e-prize\n');

  // A switch turned off again stays off.
  await page.getByRole('switch', { name: 'publish', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/pim\/environments$/);
  await row(page, 'Environments', 'E2E Prize papers').getByText('E2E Prize papers').click();
  await expect(page.getByRole('switch', { name: 'publish' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'persons' })).toBeChecked();
});
