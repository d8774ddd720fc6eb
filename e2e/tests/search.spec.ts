import { type APIRequestContext, expect, test } from '@playwright/test';
import { SEARCHER } from '../accounts';
import { pagePng } from './files';
import { createImageSet, sessionToken, signIn } from './helpers';

/**
 * 24 pages: more than one page of 20 hits. Every page speaks of the Enlightenment; page 5 most
 * of all, on a short page, so it ranks first by relevance. The first 14 are German, the rest Latin.
 */
const PAGES = 24;
const GERMAN = 14;
const RICHEST = 5;
const SIZE = { width: 900, height: 600 };

const name = (n: number) => `aufklaerung-${String(n).padStart(2, '0')}`;

function linesOf(n: number): string[] {
  if (n === RICHEST) return ['Aufklärung Aufklärung', 'Was ist Aufklärung'];
  return [`Blatt ${n} der Monatsſchrift`, `von der Aufklärung und dem Ausgang aus der Unmündigkeit im Jahr ${1700 + n}`, 'Jtem ſo hat der herr geſchriben'];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PAGE 2019 file of page n: one region, a line per text, its language the page's. */
function pageXml(n: number): string {
  const language = n <= GERMAN ? 'German' : 'Latin';
  const lines = linesOf(n).map((text, i) => {
    const top = 80 + i * 120;
    return `<TextLine id="l${i + 1}"><Coords points="60,${top} 840,${top} 840,${top + 80} 60,${top + 80}"/><TextEquiv><Unicode>${escapeXml(text)}</Unicode></TextEquiv></TextLine>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata><Creator>e2e</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>
  <Page imageFilename="${name(n)}.png" imageWidth="${SIZE.width}" imageHeight="${SIZE.height}" primaryLanguage="${language}">
    <TextRegion id="r1"><Coords points="40,60 860,60 860,540 40,540"/>
      ${lines.join('\n      ')}
    </TextRegion>
  </Page>
</PcGts>
`;
}

async function postfile(request: APIRequestContext, token: string, setId: string, file: string, mimeType: string, buffer: Buffer) {
  const res = await request.post(`/api/pim/documentimageset/postfile?dataSetId=${setId}`, {
    headers: { authorization: `Google ${token}` },
    multipart: { filepond: { name: file, mimeType, buffer } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('a researcher searches with a typo, filters by language, sorts, pages and opens a hit on its line', async ({ page, request }) => {
  test.setTimeout(300_000);
  await signIn(page, SEARCHER, '/pim/imagesets');
  const token = await sessionToken(page);
  const auth = { authorization: `Google ${token}` };

  // An index, a set in it, and its pages with their PAGE files.
  const created = await request.post('/api/pim/elasticsearchindex', { headers: auth, data: { name: 'e2e-search-enlightenment' } });
  expect(created.status(), await created.text()).toBe(200);
  const indices = (await (await request.get('/api/pim/elasticsearchindex', { headers: auth })).json()) as { uuid: string; name: string }[];
  const index = indices.find((i) => i.name === 'e2e-search-enlightenment')!;
  const setId = await createImageSet(request, token, 'E2E Berlinische Monatsschrift');
  const saved = await request.post('/api/pim/documentimageset/update', {
    headers: auth,
    data: { uuid: setId, imageset: 'E2E Berlinische Monatsschrift', elasticSearchIndex: { uuid: index.uuid } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  for (let n = 1; n <= PAGES; n++) {
    await postfile(request, token, setId, `${name(n)}.png`, 'image/png', await pagePng(n * 10, SIZE.width, SIZE.height));
    await postfile(request, token, setId, `${name(n)}.xml`, 'application/xml', Buffer.from(pageXml(n)));
  }

  // A typo (e for ä); the pages are indexed in the background: reload until all are found.
  await page.goto('/pim/search');
  const box = page.getByRole('searchbox', { name: 'Search the text' });
  await expect(box).toBeFocused();
  await box.fill('Aufklerung');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/pim\/search\?q=Aufklerung$/);
  const count = page.getByTestId('hit-count');
  await expect(async () => {
    await page.reload();
    await expect(count).toHaveText(`${PAGES} hits`, { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });

  // Ranked: by relevance the page that says it most comes first, its words highlighted.
  const results = page.getByRole('region', { name: 'Hits' });
  const hits = results.getByRole('article');
  await expect(hits).toHaveCount(20);
  await page.getByRole('textbox', { name: 'Sort by' }).click();
  await page.getByRole('option', { name: 'Relevance' }).click();
  await expect(page).toHaveURL(/sort=relevance/);
  await expect(hits.first()).toHaveAccessibleName(name(RICHEST));
  await expect(hits.first().locator('mark').first()).toHaveText('Aufklärung');

  // The language facet counts both languages; Latin leaves the 10 Latin pages.
  const languages = page.getByRole('group', { name: 'Language' });
  await expect(languages.getByRole('checkbox', { name: /^German.*\(14\)$/ })).toBeVisible();
  // The boxes follow the address, which a click changes in a transition: wait for the state
  // (check() and uncheck() look at the box at once and call the click a failure).
  const latin = languages.getByRole('checkbox', { name: /^Latin.*\(10\)$/ });
  await latin.click();
  await expect(latin).toBeChecked();
  await expect(count).toHaveText('10 hits');
  await expect(page).toHaveURL(/lang=Latin/);
  await expect(hits).toHaveCount(10);
  // German still offered with its count: the facet ignores the chosen filter.
  await expect(languages.getByRole('checkbox', { name: /^German.*\(14\)$/ })).toBeVisible();
  const latinAgain = languages.getByRole('checkbox', { name: /^Latin/ });
  await latinAgain.click();
  await expect(latinAgain).not.toBeChecked();
  await expect(count).toHaveText(`${PAGES} hits`);

  // Page 2 holds the last 4; Back returns to page 1.
  const pages = page.getByRole('navigation', { name: 'Pages of hits' });
  await pages.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(hits).toHaveCount(PAGES - 20);
  await page.goBack();
  await expect(hits).toHaveCount(20);

  // The hit opens its image with the matched line marked and read out under the viewer.
  await hits.first().getByRole('link', { name: name(RICHEST), exact: true }).click();
  await expect(page).toHaveURL(/\/pim\/documentimage\?uuid=[0-9a-f-]+&line=[0-9a-f-]+$/);
  await expect(page.getByTestId('marked-line')).toHaveCount(1);
  await expect(page.getByTestId('marked-line-panel')).toContainText('found by the search');
  await expect(page.getByTestId('marked-line-panel')).toContainText('Aufklärung');
});
