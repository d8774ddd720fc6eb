import { expect, test } from '@playwright/test';
import { COMPARER } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

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
  const postfile = (name: string, mimeType: string, buffer: Buffer) =>
    request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
      headers: { authorization: `Google ${token}` },
      multipart: { filepond: { name, mimeType, buffer } },
    });
  const image = await postfile(PAGE.file, 'image/png', await pagePng(90, PAGE.width, PAGE.height));
  expect(image.status()).toBe(200);
  const imageId = ((await image.json()) as { documentImages: { uuid: string }[] }).documentImages[0]!.uuid;
  for (const creator of ['Kraken', 'Tesseract'] as const) {
    expect((await postfile(`leaf-${creator}.xml`, 'application/xml', Buffer.from(pageXml(creator)))).status()).toBe(200);
  }

  await page.goto(`/pim/documentimage?uuid=${imageId}`);
  for (const creator of ['Kraken', 'Tesseract'] as const) {
    // Named by transcriber and analyzed date (the upload's).
    await page.getByRole('tab', { name: new RegExp(`^${creator} · `) }).click();
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
  const reference = page.getByLabel(/^Diff 1 · reference: Kraken/);
  const hypothesis = page.getByLabel(/^Diff 2 · hypothesis: Tesseract/);
  await expect(reference.locator('[data-op=substitute]')).toHaveText(['ſ', 'ſ', '\u25cc\u0304']);
  await expect(hypothesis.locator('[data-op=substitute]')).toHaveText(['s', 'f', 'm']);
  await expect(reference.locator('[data-op=substitute]').first()).toHaveAttribute('title', 'Substituted: “ſ” → “s”');

  await page.getByRole('button', { name: 'Clear diffs' }).click();
  await expect(measures).toHaveCount(0);
  await expect(page.getByText(/Mark one transcription as Diff 1/)).toBeVisible();
  await page.getByRole('tab', { name: /^Kraken/ }).click();
  await expect(page.getByRole('button', { name: 'Diff 1', exact: true })).toHaveAttribute('aria-pressed', 'false');
});
