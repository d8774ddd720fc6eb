import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { READER } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

/** The third-party fixtures beside the checkout (CI has them); the test skips without. */
const KANT = path.resolve(import.meta.dirname, '../../../shared/fixtures/page/kant1784/data');

interface Api {
  request: APIRequestContext;
  auth: { authorization: string };
}

async function ok<T>(api: Api, method: 'post' | 'get', url: string, options: Parameters<APIRequestContext['post']>[1] = {}): Promise<T> {
  const res = await api.request[method](url, { ...options, headers: api.auth });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const upload = (api: Api, setId: string, name: string, mimeType: string, buffer: Buffer) =>
  ok<{ documentImages: { uuid: string }[] }>(api, 'post', `/api/pim/documentimageset/postfile?dataSetId=${setId}`, { multipart: { filepond: { name, mimeType, buffer } } });

test('a reader annotates a page with its recognised text beside it: a line marked on the image and copied into a field, saved, then the similar hands', async ({ page, request, baseURL }) => {
  test.skip(!fs.existsSync(KANT), `${KANT} is absent`);
  test.setTimeout(300_000);
  await signIn(page, READER, '/pim/imagesets');
  const api: Api = { request, auth: { authorization: `Google ${await sessionToken(page)}` } };

  // A printed page (kant1784) with its PAGE file: 24 lines in 11 regions, a drop capital among them.
  const setId = await createImageSet(request, await sessionToken(page), 'E2E Reading room');
  const file = (...parts: string[]) => fs.readFileSync(path.join(KANT, ...parts));
  const image = await upload(api, setId, 'INPUT_0017.tif', 'image/tiff', file('OCR-D-IMG', 'INPUT_0017.tif'));
  await upload(api, setId, 'PAGE_0017_PAGE.xml', 'application/xml', file('OCR-D-GT-PAGE', 'PAGE_0017_PAGE.xml'));
  const fieldSet = await ok<{ uuid: string }>(api, 'post', '/api/pim/pimfieldset/create', {
    data: {
      name: 'E2E Reading',
      publicPimFieldSet: false,
      fields: [
        { label: 'uri', name: 'uri', type: 'text' },
        { label: 'Dataset uri', name: 'datasetUri', type: 'text' },
        { label: 'Title', name: 'title', type: 'text' },
        { label: 'Notes', name: 'notes', type: 'notes' },
      ].map((field) => ({ ...field, description: '', copyValue: false, possibleValues: [] })),
    },
  });
  // The page's handwriting features, for the Similar handwriting tab.
  const job = await ok<{ uuid: string }>(api, 'post', '/api/pim/jobs', { data: { jobType: 'SiameseNetwork', imageSet: setId } });
  await expect.poll(async () => (await ok<{ state: string }>(api, 'get', `/api/pim/jobs/${job.uuid}`)).state, { timeout: 120_000 }).toBe('done');

  const manifest = `${baseURL}/api/pim/imageset/${setId}/manifest`;
  await page.goto(`/pim/analyzeimagemanualnew?uri=${encodeURIComponent(manifest)}&fieldsetid=${fieldSet.uuid}`);
  await expect(page.getByRole('heading', { name: 'Analyze image manually (new)' })).toBeVisible();
  await expect(page.getByTestId('image-position')).toHaveText(/^Image 1 of 1/);

  // The recognised text, line by line in reading order: the drop capital before the line it begins.
  await page.getByRole('tab', { name: 'Transcription' }).click();
  const lines = page.getByRole('list', { name: 'Lines in reading order' }).getByRole('button');
  await expect(lines).toHaveCount(24);
  await expect(lines.first()).toHaveAccessibleName('Berliniſche Monatsſchrift.');
  await expect(lines.nth(7)).toHaveAccessibleName('A');
  await expect(lines.nth(8)).toHaveAccessibleName('ufklaͤrung iſt der Ausgang des Men-');
  await expect(page.getByText(/^PAGE · PAGE_0017_PAGE\.xml · /)).toBeVisible();

  // A line chosen is outlined on the image; ↓ goes on to the next.
  const overlay = page.getByTestId('viewer-overlay');
  await lines.nth(4).click();
  await expect(lines.nth(4)).toHaveAttribute('aria-pressed', 'true');
  await expect(overlay.getByRole('img', { name: 'Chosen line 5: Beantwortung der Frage:' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(lines.nth(5)).toHaveAttribute('aria-pressed', 'true');
  const marked = overlay.getByRole('img', { name: 'Chosen line 6: Was iſt Aufklaͤrung?' });
  await expect(marked).toBeVisible();
  // Brought into view: the marked line lies inside the viewer.
  const viewer = (await page.getByTestId('image-viewer').boundingBox())!;
  const line = (await marked.boundingBox())!;
  expect(line.y).toBeGreaterThanOrEqual(viewer.y);
  expect(line.y + line.height).toBeLessThanOrEqual(viewer.y + viewer.height);
  await test.info().attach('the recognised text beside the image, a line marked', { body: await page.screenshot(), contentType: 'image/png' });

  // Its text into the Title field; a note typed; saved.
  await expect(page.getByRole('textbox', { name: 'Copy the chosen line into' })).toHaveValue('Title');
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText("'Title' now holds the line. Save to keep it.")).toBeVisible();
  await page.getByRole('tab', { name: 'Metadata' }).click();
  const form = page.getByRole('group', { name: 'Metadata of this image' });
  await expect(form.getByLabel('Title')).toHaveValue('Was iſt Aufklaͤrung?');
  await form.getByLabel('Notes').fill('Kant, Berlinische Monatsschrift, December 1784');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Metadata is saved.')).toBeVisible();
  const imageUri = `${baseURL}/iiif/3/${image.documentImages[0]!.uuid}`;
  const stored = await ok<{ value: string }[]>(api, 'get', `/api/pim/metadata/get?uri=${encodeURIComponent(imageUri)}&fieldsetid=${fieldSet.uuid}`);
  expect(stored.map((entry) => entry.value)).toEqual(expect.arrayContaining(['Was iſt Aufklaͤrung?', 'Kant, Berlinische Monatsschrift, December 1784']));

  // The similar hands: the page has its features, and no readable page of another set is like it.
  await page.getByRole('tab', { name: 'Similar handwriting' }).click();
  const similar = page.getByRole('tabpanel', { name: 'Similar handwriting' });
  await expect(similar.getByText('The field set has no date field, so no date is estimated.')).toBeVisible();
  await expect(similar.getByText('Most similar images')).toBeVisible();
  await expect(similar.getByText('No similar images found.')).toBeVisible();
  // Back on the Transcription tab the chosen line is still chosen and marked.
  await page.getByRole('tab', { name: 'Transcription' }).click();
  await expect(lines.nth(5)).toHaveAttribute('aria-pressed', 'true');
  await expect(marked).toBeVisible();
});
