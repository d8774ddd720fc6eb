import { type APIRequestContext, type APIResponse, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DATER } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

/** Two hands, as two scribes differ in what the descriptor measures: slant, stroke and letter shapes. */
const HANDS = {
  upright: { font: 'DejaVu Serif', slant: 0, weight: 'normal', spacing: 0 },
  slanted: { font: 'DejaVu Sans', slant: -22, weight: 'bold', spacing: 3 },
} as const;
type HandName = keyof typeof HANDS;

const WIDTH = 1200;
const LINE = { left: 40, top: 40, height: 90, box: 70 };
const WORDS = 'in nomine domini amen notum sit omnibus presentibus et futuris quod ego rex dedi et concessi vobis forum et consuetudines ville vestre'.split(' ');
const linesOf = (n: number) => Array.from({ length: 5 }, (_, i) => Array.from({ length: 6 }, (_, j) => WORDS[(n * 7 + i * 5 + j) % WORDS.length]).join(' '));

async function handPng(hand: HandName, lines: string[]): Promise<Buffer> {
  const h = HANDS[hand];
  const height = LINE.top * 2 + lines.length * LINE.height;
  const text = lines
    .map((line, i) => {
      const baseline = LINE.top + i * LINE.height + 52;
      const shift = -Math.tan((h.slant * Math.PI) / 180) * baseline;
      return `<text x="${LINE.left + 30}" y="${baseline}" font-family="${h.font}" font-weight="${h.weight}" letter-spacing="${h.spacing}" font-size="44" transform="translate(${shift},0) skewX(${h.slant})">${line}</text>`;
    })
    .join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}"><rect width="100%" height="100%" fill="#fbf7ee"/>${text}</svg>`))
    .png()
    .toBuffer();
}

function pageXml(file: string, lines: string[]): string {
  const height = LINE.top * 2 + lines.length * LINE.height;
  const body = lines
    .map((text, i) => {
      const top = LINE.top + i * LINE.height;
      const [r, b] = [WIDTH - LINE.left, top + LINE.box];
      return `<TextLine id="l${i}"><Coords points="${LINE.left},${top} ${r},${top} ${r},${b} ${LINE.left},${b}"/><TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"><Metadata><Creator>e2e</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata><Page imageFilename="${file}.png" imageWidth="${WIDTH}" imageHeight="${height}"><TextRegion id="r1"><Coords points="0,0 ${WIDTH - 1},0 ${WIDTH - 1},${height - 1} 0,${height - 1}"/>${body}</TextRegion></Page></PcGts>`;
}

interface Api {
  request: APIRequestContext;
  auth: { authorization: string };
  origin: string;
}

async function ok<T>(response: Promise<APIResponse>, what: string): Promise<T> {
  const res = await response;
  expect(res.status(), `${what}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Uploads a page of the hand with its PAGE file; gives the image's uuid. */
async function uploadPage(api: Api, setId: string, name: string, hand: HandName, n: number): Promise<string> {
  const lines = linesOf(n);
  const post = (file: string, mimeType: string, buffer: Buffer) =>
    ok<{ documentImages: { uuid: string }[] }>(
      api.request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, { headers: api.auth, multipart: { filepond: { name: file, mimeType, buffer } } }),
      `upload ${file}`,
    );
  const image = await post(`${name}.png`, 'image/png', await handPng(hand, lines));
  await post(`${name}.xml`, 'application/xml', Buffer.from(pageXml(name, lines)));
  return image.documentImages[0]!.uuid;
}

async function runSiameseJob(api: Api, setId: string, labelField?: string) {
  const job = await ok<{ uuid: string }>(
    api.request.post('/api/pim/jobs', { headers: api.auth, data: { jobType: 'SiameseNetwork', imageSet: setId, ...(labelField && { pimFieldSiameseLabel: labelField }) } }),
    'SiameseNetwork job',
  );
  await expect
    .poll(async () => ((await (await api.request.get(`/api/pim/jobs/${job.uuid}`, { headers: api.auth })).json()) as { state: string }).state, { timeout: 120_000 })
    .toBe('done');
}

async function choose(page: Page, scope: ReturnType<Page['locator']> | Page, label: string, option: string) {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a palaeographer finds similar hands, compares pages, dates an undated page and reads a confusion matrix', async ({ page, request, baseURL }) => {
  test.setTimeout(400_000);
  await signIn(page, DATER, '/pim/imagesets');
  const api: Api = { request, auth: { authorization: `Google ${await sessionToken(page)}` }, origin: baseURL! };

  // Pages of two hands in two sets, dated and labelled by scribe; an undated page of the first hand.
  const fieldSet = await ok<{ uuid: string; fields: { id: string; name: string }[] }>(
    request.post('/api/pim/pimfieldset/create', {
      headers: api.auth,
      data: {
        name: 'E2E Dating',
        publicPimFieldSet: false,
        fields: [
          { label: 'uri', name: 'uri', type: 'text' },
          { label: 'Dataset uri', name: 'datasetUri', type: 'text' },
          { label: 'Date', name: 'date', type: 'date' },
          { label: 'Script', name: 'script', type: 'script' },
          { label: 'Scribe', name: 'scribe', type: 'text' },
        ].map((f) => ({ ...f, description: '', copyValue: false, possibleValues: [] })),
      },
    }),
    'field set',
  );
  const fieldId = (name: string) => fieldSet.fields.find((f) => f.name === name)!.id;
  const sets = {
    evora: await createImageSet(request, await sessionToken(page), 'E2E Evora'),
    santarem: await createImageSet(request, await sessionToken(page), 'E2E Santarem'),
    undated: await createImageSet(request, await sessionToken(page), 'E2E Undated'),
  };
  const manifest = (setId: string) => `${api.origin}/api/pim/imageset/${setId}/manifest`;
  const describe = async (setId: string, imageId: string, values: Record<string, string>) => {
    const all: Record<string, string> = { uri: `${api.origin}/iiif/3/${imageId}`, datasetUri: manifest(setId), ...values };
    await ok(request.post('/api/pim/metadata/create', { headers: api.auth, data: { fields: fieldSet.fields.map((f) => ({ id: f.id, value: all[f.name] ?? null })) } }), 'metadata');
  };
  const pages: [keyof typeof sets, string, HandName, Record<string, string>][] = [
    ['evora', 'evora-1', 'upright', { date: '1218-05-01', script: 'Textualis', scribe: 'upright' }],
    ['evora', 'evora-2', 'upright', { date: '1220-01-01', script: 'Textualis', scribe: 'upright' }],
    ['santarem', 'santarem-1', 'slanted', { date: '1347-03-01', script: 'Cursiva', scribe: 'slanted' }],
    ['santarem', 'santarem-2', 'slanted', { date: '1350-01-01', script: 'Cursiva', scribe: 'slanted' }],
    ['undated', 'undated-1', 'upright', {}],
  ];
  const images: Record<string, string> = {};
  for (const [i, [set, name, hand, values]] of pages.entries()) {
    images[name] = await uploadPage(api, sets[set], name, hand, i);
    if (Object.keys(values).length > 0) await describe(sets[set], images[name]!, values);
  }
  // The snippets and features of every set; the two dated sets together under one parent, labelled by scribe.
  const charters = await createImageSet(request, await sessionToken(page), 'E2E Charters');
  for (const child of [sets.evora, sets.santarem]) {
    await ok(request.put(`/api/pim/documentimageset/${charters}/subsets`, { headers: api.auth, data: { uuid: child } }), 'subset');
  }
  await runSiameseJob(api, charters, fieldId('scribe'));
  await runSiameseJob(api, sets.undated);

  // Find Siamese: the labelled snippets by scribe; one snippet's nearest are of the same hand.
  await page.goto('/pim/findsiamese');
  await expect(page.getByRole('heading', { name: 'Labelled snippets' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'upright (10)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'slanted (10)' })).toBeVisible();
  await page.getByRole('list', { name: 'upright' }).getByRole('button', { name: 'Choose this snippet of evora-1' }).first().click();
  const nearest = page.getByRole('list', { name: 'Nearest snippets' });
  await expect(nearest.getByRole('listitem').first()).toContainText(/Distance \d/);
  await expect(nearest.getByRole('listitem').first()).toContainText(/evora-2|undated-1/);
  await expect(page).toHaveURL(/findsiamese\?.*id=/);

  // Siamese compare images: the same hand is nearer than the other.
  const distanceBetween = async (second: [string, string]) => {
    await page.goto('/pim/findsiamesesingleimage');
    await expect(page.getByText('Choose an image on both sides to compare them.')).toBeVisible();
    await choose(page, page, 'Image set', 'E2E Undated');
    await choose(page, page, 'Image', 'undated-1');
    await choose(page, page, 'Image set of the second image', second[0]);
    await choose(page, page, 'Second image', second[1]);
    const text = await page.getByTestId('images-distance').textContent();
    await expect(page.getByRole('list', { name: 'Snippet pairs' }).getByRole('listitem')).toHaveCount(5);
    return Number(/([\d.]+)$/.exec(text ?? '')![1]);
  };
  expect(await distanceBetween(['E2E Evora', 'evora-1'])).toBeLessThan(await distanceBetween(['E2E Santarem', 'santarem-1']));

  // Siamese compare with image sets: the images of the parent set, the same hand first.
  await page.goto('/pim/findsiamesesingleimageset');
  await choose(page, page, 'Image set', 'E2E Undated');
  await choose(page, page, 'Image', 'undated-1');
  await choose(page, page, 'Image set to search', 'E2E Charters');
  const ranked = page.getByRole('list', { name: 'Images, most similar first' }).getByRole('listitem');
  await expect(ranked).toHaveCount(4);
  await expect(ranked.nth(0)).toContainText(/evora-/);
  await expect(ranked.nth(1)).toContainText(/evora-/);

  // The confusion matrix of the labelled job.
  await page.goto('/pim/siameseconfusionmatrices');
  const row = page.getByRole('row').filter({ hasText: 'E2E Charters' });
  await expect(row).toContainText('Built-in handwriting descriptor');
  await row.getByRole('link').first().click();
  await expect(page).toHaveURL(/siameseconfusionmatrix\?uuid=/);
  await expect(page.getByRole('table', { name: 'Confusion matrix' })).toBeVisible();
  await expect(page.getByText(/precision\s+recall\s+f1-score\s+support/)).toBeVisible();
  await page.goto('/pim/siameseconfusionmatrix');
  await expect(page).toHaveURL(/siameseconfusionmatrices$/);

  // The annotator's Similar handwriting tab dates the undated page, and the date goes into its field.
  const imageUri = `${api.origin}/iiif/3/${images['undated-1']}`;
  await page.goto(`/pim/analyzeimagemanual?uri=${encodeURIComponent(manifest(sets.undated))}&fieldsetid=${fieldSet.uuid}&imageUri=${encodeURIComponent(imageUri)}`);
  await page.getByRole('tab', { name: 'Similar handwriting' }).click();
  await expect(page.getByText(/Estimated date: 12(18|19|20)/)).toBeVisible();
  await expect(page.getByText(/Script: Textualis/)).toBeVisible();
  await expect(page.getByText('Most similar images')).toBeVisible();
  await page.getByRole('button', { name: 'Copy to date field' }).click();
  await page.getByRole('tab', { name: 'Metadata' }).click();
  await expect(page.getByRole('group', { name: 'Metadata of this image' }).getByLabel('Date')).toHaveValue(/^12(18|19|20)-07-01$/);
});
