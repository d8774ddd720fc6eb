import { type APIRequestContext, expect, test } from '@playwright/test';
import { READER } from '../accounts';
import { printedPage, printedPageXml } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

/** A printed page: a heading, a marginal note and a paragraph, in this order in the file. */
const HEADING = ['Of the Town Register'];
const MARGIN = ['Written in the margin', 'by a later hand'];
const PARAGRAPH = ['The register was kept in the vestry', 'Every clerk wrote his name in it', 'The first pages give the price of bread', 'Later hands added the accounts'];
/** Read heading, paragraph, then the marginal note: not the file's order. */
const READING = [...HEADING, ...PARAGRAPH, ...MARGIN];

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
  test.setTimeout(300_000);
  await signIn(page, READER, '/pim/imagesets');
  const api: Api = { request, auth: { authorization: `Google ${await sessionToken(page)}` } };

  // The page with its PAGE file, whose ReadingOrder puts the paragraph before the marginal note.
  const setId = await createImageSet(request, await sessionToken(page), 'E2E Reading room');
  const size = { width: 1654, height: 1100 };
  const printed = await printedPage([...HEADING, ...MARGIN, ...PARAGRAPH], size);
  const regions = [printed.lines.slice(0, 1), printed.lines.slice(1, 3), printed.lines.slice(3)];
  const image = await upload(api, setId, 'register-1.png', 'image/png', printed.png);
  await upload(api, setId, 'register-1.xml', 'application/xml', Buffer.from(printedPageXml('register-1.png', size, regions, [0, 2, 1])));
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

  // The recognised text, line by line in reading order: the paragraph before the marginal note.
  await page.getByRole('tab', { name: 'Transcription' }).click();
  const lines = page.getByRole('list', { name: 'Lines in reading order' }).getByRole('button');
  await expect(lines).toHaveCount(READING.length);
  for (const [i, text] of READING.entries()) await expect(lines.nth(i)).toHaveAccessibleName(text);
  await expect(page.getByText(/^PAGE · register-1\.xml · /)).toBeVisible();

  // A line chosen is outlined on the image; ↓ goes on to the next.
  const overlay = page.getByTestId('viewer-overlay');
  await lines.nth(1).click();
  await expect(lines.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(overlay.getByRole('img', { name: `Chosen line 2: ${READING[1]}` })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(lines.nth(2)).toHaveAttribute('aria-pressed', 'true');
  const marked = overlay.getByRole('img', { name: `Chosen line 3: ${READING[2]}` });
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
  await expect(form.getByLabel('Title')).toHaveValue(READING[2]!);
  await form.getByLabel('Notes').fill('The town register, first volume');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Metadata is saved.')).toBeVisible();
  const imageUri = `${baseURL}/iiif/3/${image.documentImages[0]!.uuid}`;
  const stored = await ok<{ value: string }[]>(api, 'get', `/api/pim/metadata/get?uri=${encodeURIComponent(imageUri)}&fieldsetid=${fieldSet.uuid}`);
  expect(stored.map((entry) => entry.value)).toEqual(expect.arrayContaining([READING[2], 'The town register, first volume']));

  // The similar hands: the page has its features, and no readable page of another set is like it.
  await page.getByRole('tab', { name: 'Similar handwriting' }).click();
  const similar = page.getByRole('tabpanel', { name: 'Similar handwriting' });
  await expect(similar.getByText('The field set has no date field, so no date is estimated.')).toBeVisible();
  await expect(similar.getByText('Most similar images')).toBeVisible();
  await expect(similar.getByText('No similar images found.')).toBeVisible();
  // Back on the Transcription tab the chosen line is still chosen and marked.
  await page.getByRole('tab', { name: 'Transcription' }).click();
  await expect(lines.nth(2)).toHaveAttribute('aria-pressed', 'true');
  await expect(marked).toBeVisible();
});
