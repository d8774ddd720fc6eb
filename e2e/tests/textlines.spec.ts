import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { TRANSCRIBER } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

interface Line {
  /** What the page shows, and what the PAGE file's recogniser made of it. */
  written: string;
  recognised: string;
  box: { x: number; y: number; w: number; h: number };
}

/** Three lines; the third was recognised right. A combining macron and a long s must survive as typed. */
const LINES: Line[] = [
  { written: 'Jtem ſo hat der herr', recognised: 'Jtem so hat der herr', box: { x: 80, y: 140, w: 900, h: 90 } },
  { written: 'geſchriben an de\u0304 tag', recognised: 'gefchriben an dem tag', box: { x: 80, y: 300, w: 900, h: 90 } },
  { written: 'vnd iar als oben stat', recognised: 'vnd iar als oben stat', box: { x: 80, y: 460, w: 900, h: 90 } },
];
const PAGE = { width: 1200, height: 700, file: 'folio.png', label: 'folio' };

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const boxPoints = ({ x, y, w, h }: Line['box']) => `${x},${y} ${x + w},${y} ${x + w},${y + h} ${x},${y + h}`;

/** A page with the lines written on it, so each line image shows its own text. */
async function writtenPage(): Promise<Buffer> {
  const texts = LINES.map(
    ({ written, box }) =>
      `<text x="${box.x + 20}" y="${box.y + 62}" font-family="DejaVu Serif" font-style="italic" font-size="52" fill="#3b2a1a">${escapeXml(written)}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}"><rect width="100%" height="100%" fill="#f3ead6"/>${texts}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A PAGE 2019 file with one region holding the recognised lines, each with its outline. */
function pageXml(): string {
  const lines = LINES.map(
    ({ recognised, box }, i) =>
      `<TextLine id="l${i + 1}"><Coords points="${boxPoints(box)}"/><TextEquiv><Unicode>${escapeXml(recognised)}</Unicode></TextEquiv></TextLine>`,
  ).join('\n      ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata><Creator>e2e-recogniser</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>
  <Page imageFilename="${PAGE.file}" imageWidth="${PAGE.width}" imageHeight="${PAGE.height}">
    <TextRegion id="r1"><Coords points="60,120 1000,120 1000,570 60,570"/>
      ${lines}
    </TextRegion>
  </Page>
</PcGts>
`;
}

test('a transcriber corrects the lines of a page from the keyboard and reviews those that differ', async ({ page, request }) => {
  await signIn(page, TRANSCRIBER, '/pim/imagesets');
  const token = await sessionToken(page);
  const headers = { authorization: `Google ${token}` };
  const setId = await createImageSet(request, token, 'E2E Lines');
  const postfile = (name: string, mimeType: string, buffer: Buffer) =>
    request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, { headers, multipart: { filepond: { name, mimeType, buffer } } });
  const image = await postfile(PAGE.file, 'image/png', await writtenPage());
  expect(image.status()).toBe(200);
  const imageId = ((await image.json()) as { documentImages: { uuid: string }[] }).documentImages[0]!.uuid;
  expect((await postfile('folio.xml', 'application/xml', Buffer.from(pageXml()))).status()).toBe(200);

  // Three lines in random order, each corrected (or kept) and saved with Enter.
  await page.goto(`/pim/pimsimpletextline?parentuuid=${imageId}`);
  const field = page.getByRole('textbox', { name: 'Ground truth' });
  const byRecognised = new Map(LINES.map((line) => [line.recognised, line]));
  for (let turn = 0; turn < LINES.length; turn++) {
    await expect(field).toBeFocused();
    const line = byRecognised.get(await field.inputValue());
    expect(line).toBeDefined();
    byRecognised.delete(line!.recognised);
    const lineImage = page.getByRole('img', { name: `Page ${PAGE.label}, line ${LINES.indexOf(line!) + 1}` });
    await expect.poll(() => lineImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    if (line!.written !== line!.recognised) {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.insertText(line!.written);
    }
    await page.keyboard.press('Enter');
    if (turn < LINES.length - 1) {
      await expect(field).not.toHaveValue(line!.written);
      await expect(page.getByRole('status')).toHaveText('The last line was saved.');
    }
  }
  await expect(page.getByText('There are no more lines to correct.')).toBeVisible();

  // Exactly the two lines corrected to another text differ, with their texts as typed.
  await page.getByRole('link', { name: 'See the lines whose ground truth differs from their text' }).click();
  await expect(page).toHaveURL(new RegExp(`/pim/pimsimpletextlines\\?parentuuid=${imageId}`));
  const table = page.getByRole('table', { name: 'Text lines that differ from ground truth' });
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(2);
  await page.goto('/pim/pimsimpletextlines');
  await expect(rows).toHaveCount(2);
  for (const line of LINES.slice(0, 2)) {
    const row = rows.filter({ hasText: line.recognised });
    await expect(row.getByRole('cell').nth(0)).toHaveText(line.recognised);
    await expect(row.getByRole('cell').nth(1)).toHaveText(line.written);
  }
  await expect(rows.filter({ hasText: LINES[0]!.recognised }).getByRole('cell').nth(2)).toHaveText('5.0%');
  await expect(rows.filter({ hasText: LINES[2]!.recognised })).toHaveCount(0);

  // Corrected to match its text, the first line leaves the list.
  await page.getByRole('link', { name: `Correct page ${PAGE.label}, line 1` }).click();
  await expect(field).toHaveValue(LINES[0]!.written);
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(LINES[0]!.recognised);
  await page.keyboard.press('Enter');
  await expect(page.getByText('There are no more lines to correct.')).toBeVisible();
  await page.goto('/pim/pimsimpletextlines');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByRole('cell').nth(1)).toHaveText(LINES[1]!.written);
});
