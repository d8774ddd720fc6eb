import { expect, test } from '@playwright/test';
import { CURATOR } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

test('a curator puts a set into a search index through Imageset settings', async ({ page, request }) => {
  await signIn(page, CURATOR, '/pim/imagesets');
  const token = await sessionToken(page);
  const index = await request.post('/api/pim/elasticsearchindex', {
    headers: { authorization: `Google ${token}` },
    data: { name: 'e2e-letters' },
  });
  expect(index.status()).toBe(200);
  const setId = await createImageSet(request, token, 'E2E Indexed letters');

  await page.goto(`/pim/imageset?uuid=${setId}`);
  await page.getByRole('button', { name: 'Imageset settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Imageset settings' });
  await settings.getByLabel('Pretty name').fill('Letters, 1850');
  await settings.getByLabel('Search index').click();
  await page.getByRole('option', { name: 'e2e-letters' }).click();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Imageset is saved successfully!')).toBeVisible();
  await expect(settings).toBeHidden();

  // Saved on the server: the settings open again with the index, and the index lists the set.
  await page.reload();
  await page.getByRole('button', { name: 'Imageset settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Imageset settings' }).getByLabel('Search index')).toHaveValue('e2e-letters');
  const { uuid } = (await index.json()) as { uuid: string };
  const sets = await request.get(`/api/pim/elasticsearchindex/${uuid}/documentimagesets`, { headers: { authorization: `Google ${token}` } });
  expect(await sets.json()).toEqual([{ uuid: setId, name: 'E2E Indexed letters' }]);
});
