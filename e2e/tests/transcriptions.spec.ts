import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { COMPARER } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

/** The third-party fixtures beside the checkout (CI has them); the test that needs them skips without. */
const KANT = path.resolve(import.meta.dirname, '../../../shared/fixtures/page/kant1784/data');

/** Uploads a file into the set through the API, as the upload dialog does. */
async function postfile(request: APIRequestContext, token: string, setId: string, name: string, mimeType: string, buffer: Buffer) {
  const res = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name, mimeType, buffer } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { documentImages: { uuid: string }[]; transcriptions: string[] };
}

const PAGE = { width: 1200, height: 700, file: 'leaf.png' };

/** What two recognisers made of the same two lines: long s and a combining macron (U+0304) kept by one only. */
const READINGS = {
  Kraken: ['Jtem ſo hat der herr', 'geſchriben an de\u0304 tag'],
  Tesseract: ['Jtem so hat der herr', 'gefchriben an dem tag'],
};

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PAGE 2019 file of the page by one recogniser: one region, a line per reading. */
function pageXml(creator: keyof typeof READINGS): string {
  const lines = READINGS[creator].map(
    (text, i) =>
      `<TextLine id="l${i + 1}"><Coords points="80,${100 + i * 150} 980,${100 + i * 150} 980,${190 + i * 150} 80,${190 + i * 150}"/><TextEquiv><Unicode>${escapeXml(text)}</Unicode></TextEquiv></TextLine>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata><Creator>${creator}</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>
  <Page imageFilename="${PAGE.file}" imageWidth="${PAGE.width}" imageHeight="${PAGE.height}">
    <TextRegion id="r1"><Coords points="60,80 1000,80 1000,450 60,450"/>
      ${lines.join('\n      ')}
    </TextRegion>
  </Page>
</PcGts>
`;
}

test('a researcher compares two transcriptions of a page: CER and the diff, then clears them', async ({ page, request }) => {
  await signIn(page, COMPARER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Comparison');
  const image = await postfile(request, token, setId, PAGE.file, 'image/png', await pagePng(90, PAGE.width, PAGE.height));
  const imageId = image.documentImages[0]!.uuid;
  for (const creator of ['Kraken', 'Tesseract'] as const) {
    await postfile(request, token, setId, `leaf-${creator}.xml`, 'application/xml', Buffer.from(pageXml(creator)));
  }

  await page.goto(`/pim/documentimage?uuid=${imageId}`);
  for (const creator of ['Kraken', 'Tesseract'] as const) {
    // Named by format, uploaded file and analyzed date (the upload's).
    await page.getByRole('tab', { name: new RegExp(`^PAGE · leaf-${creator}\\.xml · `) }).click();
    await expect(page.getByLabel('Clean text')).toHaveText(READINGS[creator].join('\n'), { useInnerText: true });
    const fields = page.getByRole('table', { name: 'Fields of the transcription' });
    await expect(fields.getByRole('row', { name: /^transcriber/ })).toHaveText(`transcriber${creator}`);
    await expect(fields.getByRole('row', { name: /^format/ })).toHaveText('formatpage');
    await page.getByRole('button', { name: creator === 'Kraken' ? 'Diff 1' : 'Diff 2', exact: true }).click();
  }
  await expect(page.getByRole('button', { name: 'Diff 2', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // The measures are computed off the main thread, in the comparison's web worker.
  const worker = page.waitForEvent('worker', { predicate: (w) => w.url().includes('comparison.worker') });
  await page.getByRole('button', { name: 'Show comparison' }).click();
  await worker;

  // 42 code points on each side; ſ→s, ſ→f and the macron→m are 3 substitutions: 3/42 = 7.1%, and 3 of 9 words.
  const measures = page.getByRole('table', { name: 'Measures' });
  await expect(measures.getByRole('row', { name: /Character error rate/ }).getByRole('cell').first()).toHaveText('7.1%');
  await expect(measures.getByRole('row', { name: /Levenshtein/ }).getByRole('cell').first()).toHaveText('3');
  await expect(measures.getByRole('row', { name: /Word error rate/ }).getByRole('cell').first()).toHaveText('33.3%');
  const reference = page.getByLabel(/^Diff 1 · reference: PAGE · leaf-Kraken\.xml/);
  const hypothesis = page.getByLabel(/^Diff 2 · hypothesis: PAGE · leaf-Tesseract\.xml/);
  await expect(reference.locator('[data-op=substitute]')).toHaveText(['ſ', 'ſ', '\u25cc\u0304']);
  await expect(hypothesis.locator('[data-op=substitute]')).toHaveText(['s', 'f', 'm']);
  await expect(reference.locator('[data-op=substitute]').first()).toHaveAttribute('title', 'Substituted: “ſ” → “s”');

  await page.getByRole('button', { name: 'Clear diffs' }).click();
  await expect(measures).toHaveCount(0);
  await expect(page.getByText(/Mark one transcription as Diff 1/)).toBeVisible();
  await page.getByRole('tab', { name: /leaf-Kraken/ }).click();
  await expect(page.getByRole('button', { name: 'Diff 1', exact: true })).toHaveAttribute('aria-pressed', 'false');
});

test('a real page (kant1784 as PAGE and ALTO): its layout over the image and under the drawing, its tabs, language and font', async ({ page, request }) => {
  test.skip(!fs.existsSync(KANT), `${KANT} is absent`);
  await signIn(page, COMPARER, '/pim/imagesets');
  const token = await sessionToken(page);
  const setId = await createImageSet(request, token, 'E2E Kant layout');
  const file = (...parts: string[]) => fs.readFileSync(path.join(KANT, ...parts));
  const { documentImages } = await postfile(request, token, setId, 'INPUT_0017.tif', 'image/tiff', file('OCR-D-IMG', 'INPUT_0017.tif'));
  const imageId = documentImages[0]!.uuid;
  await postfile(request, token, setId, 'PAGE_0017_ALTO.xml', 'application/xml', file('OCR-D-GT-ALTO', 'PAGE_0017_ALTO.xml'));
  await postfile(request, token, setId, 'PAGE_0017_PAGE.xml', 'application/xml', file('OCR-D-GT-PAGE', 'PAGE_0017_PAGE.xml'));
  const listed = await request.get(`/api/pim/documentimage/${imageId}/transcriptions`, { headers: { authorization: `Google ${token}` } });
  const pageXmlLanguage = ((await listed.json()) as { format: string; language: string | null }[]).find((t) => t.format === 'page')!.language;
  const fonts: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.woff2')) fonts.push(new URL(r.url()).pathname);
  });

  await page.goto(`/pim/documentimage?uuid=${imageId}`);
  // The newest transcription's layout (the PAGE file's) over the image: a shape per line.
  await expect(page.getByRole('textbox', { name: 'Layout of' })).toHaveValue(/^PAGE · PAGE_0017_PAGE\.xml · /);
  const overlay = page.getByTestId('viewer-overlay');
  await expect(overlay.locator('[data-line]')).toHaveCount(24);
  await expect(overlay.locator('[data-region]')).toHaveCount(11);
  await expect(page.getByRole('group', { name: 'Colours of the layout' })).toContainText('24 lines');
  // Pointing at a line says what it reads; a click keeps it.
  const lineText = page.getByTestId('layout-line-text');
  await overlay.locator('[data-line="2"]').hover();
  await expect(lineText).toHaveText('Zwo\u0364lftes Stu\u0364k . December .');
  await overlay.locator('[data-line="0"]').click();
  await page.mouse.move(1, 1);
  await expect(lineText).toHaveText('Berliniſche Monatsſchrift.');
  await expect(page.getByTestId('layout-line-panel')).toContainText('Line 1 of 24');
  await test.info().attach('the layout over the image', { body: await page.screenshot(), contentType: 'image/png' });
  const showLayout = page.getByRole('switch', { name: 'Show layout' });
  await showLayout.click();
  await expect(showLayout).not.toBeChecked();
  await expect(overlay.locator('[data-line]')).toHaveCount(0);
  await showLayout.click();
  await expect(showLayout).toBeChecked();
  await expect(overlay.locator('[data-line]')).toHaveCount(24);

  // Under the drawing tool, for reference only: a click on a line still draws.
  await page.getByText('Draw', { exact: true }).click();
  const reference = page.getByTestId('layout-reference');
  await expect(reference.locator('[data-line]')).toHaveCount(24);
  await reference.locator('[data-line="12"]').scrollIntoViewIfNeeded();
  const line = (await reference.locator('[data-line="12"]').boundingBox())!;
  await page.mouse.click(line.x + line.width / 2, line.y + line.height / 2);
  await expect(page.getByText('Drawing a polygon (Region): 1 point. Click to add points, Enter to finish.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByText('View', { exact: true }).click();

  // Tabs named by format, file, language (when the file gives one) and date.
  const date = '[A-Z][a-z]{2} \\d{1,2}, \\d{4}';
  const pageTab = page.getByRole('tab', { name: /^PAGE · PAGE_0017_PAGE\.xml · / });
  const altoTab = page.getByRole('tab', { name: /^ALTO · PAGE_0017_ALTO\.xml · / });
  await expect(altoTab).toHaveText(new RegExp(`^ALTO · PAGE_0017_ALTO\\.xml · ${date}$`));
  await expect(pageTab).toHaveText(new RegExp(`^PAGE · PAGE_0017_PAGE\\.xml · ${pageXmlLanguage ? `${pageXmlLanguage} · ` : ''}${date}$`));
  await pageTab.click();
  const fields = page.getByRole('table', { name: 'Fields of the transcription' });
  await expect(fields.getByRole('row', { name: /^sourceFileName/ })).toHaveText('sourceFileNamePAGE_0017_PAGE.xml');
  await expect(fields.getByRole('row', { name: /^transcriber/ })).toHaveText('transcriberOCR-D');
  await expect(fields.getByRole('row', { name: /^language/ })).toHaveText(`language${pageXmlLanguage ?? ''}`);

  // The text in the bundled manuscript font, which has the e above (U+0364) and MUFI's characters.
  const text = page.getByLabel('Clean text');
  await expect(text).toContainText('Zwo\u0364lftes Stu\u0364k');
  expect(await text.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"?Junicode"?, /);
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    const statuses: string[] = [];
    document.fonts.forEach((f) => {
      if (f.family.replace(/"/g, '') === 'Junicode') statuses.push(f.status);
    });
    return statuses;
  });
  expect(loaded).toEqual(['loaded']);
  expect(fonts.filter((f) => /^\/pim\/assets\/junicode-regular-[\w-]+\.woff2$/.test(f))).toHaveLength(1);
  await test.info().attach('the PAGE transcription in Junicode', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  // From the ALTO tab to its layout on the image.
  await altoTab.click();
  await page.getByRole('button', { name: 'Show its layout on the image' }).click();
  await expect(page.getByRole('textbox', { name: 'Layout of' })).toHaveValue(/^ALTO · PAGE_0017_ALTO\.xml · /);
  await expect(overlay.locator('[data-line]')).toHaveCount(24);
});
