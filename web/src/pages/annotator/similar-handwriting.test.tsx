import {
  BUILTIN_SIMILARITY_MODEL,
  BUILTIN_SIMILARITY_MODEL_LABEL,
  compareBody,
  dateEstimateQuery,
  type CompareBody,
  type DateEstimate,
  type DateEstimateQuery,
  type SiameseSnippetResult,
  type SimilarityModel,
} from '@pim/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import { annotatorPath, annotatorServer, FIELD_LIST, FIELD_SET, FIELDS, savedBodies, serviceOf } from './fixtures.test-support';
import { ownImageUuid } from './paths';

const osd = vi.hoisted(() => ({ create: vi.fn(() => ({ viewport: { zoomBy: vi.fn(), applyConstraints: vi.fn(), goHome: vi.fn() }, destroy: vi.fn(), addHandler: vi.fn() })) }));
vi.mock('openseadragon', () => ({ default: osd.create }));

/** The uuid of canvas n's image, as its Image service id names it. */
const imageOf = (n: number) => serviceOf(n).split('/').pop()!;
const SIAMESE_MODEL = '77777777-7777-4777-8777-777777777777';
const BUILTIN: SimilarityModel = { id: BUILTIN_SIMILARITY_MODEL, label: BUILTIN_SIMILARITY_MODEL_LABEL, snippets: 240, dimensions: 64 };
const TRAINED: SimilarityModel = { id: SIAMESE_MODEL, label: 'Charters 2024', snippets: 80, dimensions: 20 };

let snippetNumber = 0;
function snippet(label: string, imageId: string, distance: number, extra: Partial<SiameseSnippetResult> = {}): SiameseSnippetResult {
  snippetNumber += 1;
  const n = String(snippetNumber).padStart(12, '0');
  return {
    uuid: `a0000000-0000-4000-8000-${n}`,
    distance,
    cosineFromTarget: 0.9,
    tag: null,
    documentImageId: imageId,
    documentOCRResultLineUUID: `b0000000-0000-4000-8000-${n}`,
    imageLocation: `pim/pimsimpletextline/b0000000-0000-4000-8000-${n}/image`,
    documentImageLabel: label,
    lineText: null,
    region: { x: 10, y: 20, w: 300, h: 40 },
    model: BUILTIN_SIMILARITY_MODEL,
    ...extra,
  };
}

const LEIDEN = '66666666-6666-4666-8666-666666666661';
const DEVENTER = '66666666-6666-4666-8666-666666666662';
/** An image of the same set as the page: found only when 'Only other image sets' is off. */
const SAME_SET = imageOf(3);
const leiden = snippet('Leiden, charter 12', LEIDEN, 0.125, { tag: 'Hand A', lineText: 'In nomine domini amen' });
const deventer = snippet('Deventer, charter 3', DEVENTER, 0.5, { cosineFromTarget: 0.75 });
const sameSet = snippet('f. 3r', SAME_SET, 0.0625);

const ESTIMATE: DateEstimate = {
  date: '1452-07-01',
  year: 1452,
  from: 1440,
  to: 1465,
  script: 'Hybrida',
  scriptShare: 0.75,
  neighbours: [
    { documentImageId: LEIDEN, documentImageLabel: 'Leiden, charter 12', distance: 0.125, weight: 8, date: '1450-03-01', script: 'Hybrida', snippet: leiden },
    { documentImageId: DEVENTER, documentImageLabel: 'Deventer, charter 3', distance: 0.5, weight: 2, date: '1461-11-30', script: 'Textualis', snippet: deventer },
  ],
  reason: null,
};

interface SimilarityOptions {
  models?: SimilarityModel[];
  /** The nearest images of other sets, instead of Leiden and Deventer. */
  similar?: SiameseSnippetResult[];
  estimate?: DateEstimate;
  /** Answers getFields instead of the fixture's field list. */
  fields?: () => Response;
}

/**
 * The annotator's server with the similarity calls: the models, the nearest images of every
 * readable set (the page's own set only when asked for), the estimate, and the snippets' crops.
 */
function similarityServer({ models = [BUILTIN], similar = [leiden, deventer], estimate = ESTIMATE, fields }: SimilarityOptions = {}) {
  const server = annotatorServer({ fields });
  const rest = server.fetchMock.getMockImplementation()!;
  const compared: CompareBody[] = [];
  const estimated: DateEstimateQuery[] = [];
  server.fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/pim/siamese/models') return jsonResponse(models);
    if (url.pathname === '/api/pim/siamese/comparewithimageset' && init?.method === 'POST') {
      const body = compareBody.parse(JSON.parse(String(init.body)));
      compared.push(body);
      return jsonResponse(body.onlyDifferentImageSets ? similar : [sameSet, ...similar]);
    }
    if (url.pathname === '/api/pim/siamese/dateestimate') {
      estimated.push(dateEstimateQuery.parse(Object.fromEntries(url.searchParams)));
      return jsonResponse(estimate);
    }
    if (/^\/api\/pim\/pimsimpletextline\/[^/]+\/image$/.test(url.pathname)) return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
    return rest(input, init);
  });
  return { ...server, compared, estimated };
}

/** The input of a field of the form; a select's option list carries its label too. */
function field(label: string): HTMLInputElement {
  const input = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!input) throw new Error(`no input labelled ${label}`);
  return input as HTMLInputElement;
}

/** Opens the annotator at canvas n, once its stored values are in, and goes to 'Similar handwriting'. */
async function openSimilarTab(path = annotatorPath()) {
  const view = renderApp(path);
  await screen.findByLabelText('Shelfmark');
  await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
  await userEvent.click(screen.getByRole('tab', { name: 'Similar handwriting' }));
  return { ...view, panel: screen.getByRole('tabpanel', { name: 'Similar handwriting' }) };
}

const resultLabels = () =>
  within(screen.getByRole('list', { name: 'Most similar images' }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

stubObjectUrls('blob:snippet');
beforeEach(() => osd.create.mockClear());

describe("the annotator's 'Similar handwriting' tab", () => {
  it('shows the most similar images of other sets with their distances, each by its line, and all sets when asked', async () => {
    const { compared, fetchMock } = similarityServer();
    await openSimilarTab();

    await waitFor(() => expect(resultLabels()).toEqual(['Leiden, charter 12', 'Deventer, charter 3']));
    expect(compared).toEqual([
      { model: BUILTIN_SIMILARITY_MODEL, imageUuid: imageOf(1), onlyDifferentImageSets: true, onlyDifferentImages: true, distanceAlgorithm: 'Euclidean' },
    ]);
    const [first] = within(screen.getByRole('list', { name: 'Most similar images' })).getAllByRole('listitem');
    expect(within(first!).getByText('Distance 0.125')).toBeTruthy();
    expect(within(first!).getByText('Cosine 0.900')).toBeTruthy();
    expect(within(first!).getByTitle('Tag').textContent).toBe('Hand A');
    expect(within(first!).getByText('In nomine domini amen')).toBeTruthy();
    const lineLink = `/pim/documentimage?uuid=${LEIDEN}&line=${leiden.documentOCRResultLineUUID}`;
    expect(within(first!).getByRole('link', { name: 'Leiden, charter 12' }).getAttribute('href')).toBe(lineLink);
    // The crop is the line's image below the API: fetched with the sign-in and shown from the fetched bytes.
    expect(((await within(first!).findByRole('img', { name: 'A line of Leiden, charter 12' })) as HTMLImageElement).src).toBe('blob:snippet');
    const crop = fetchMock.mock.calls.find(([input]) => String(input).endsWith(`/api/${leiden.imageLocation}`));
    expect(new Headers(crop?.[1]?.headers).get('Authorization')).toBe('Google tok');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Only other image sets' }));
    await waitFor(() => expect(resultLabels()).toEqual(['f. 3r', 'Leiden, charter 12', 'Deventer, charter 3']));
    expect(compared[1]).toMatchObject({ onlyDifferentImageSets: false, onlyDifferentImages: true });
    expect(compared[1]).not.toHaveProperty('imageSetUuid');
  });

  it("shows the first ten similar images, and ten more with each 'Show more'", async () => {
    const many = Array.from({ length: 23 }, (_, i) => snippet(`Charter ${i + 1}`, LEIDEN, i / 100));
    similarityServer({ similar: many });
    await openSimilarTab();
    await waitFor(() => expect(resultLabels()).toHaveLength(10));
    await userEvent.click(screen.getByRole('button', { name: 'Show more (10 of 23 shown)' }));
    expect(resultLabels()).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Show more (20 of 23 shown)' }));
    expect(resultLabels()).toEqual(many.map((result) => result.documentImageLabel));
    expect(screen.queryByRole('button', { name: /^Show more/ })).toBeNull();
  });

  it('shows the date estimate with its interval, its neighbours and the script, asked with the date and script fields', async () => {
    const { estimated } = similarityServer();
    const { panel } = await openSimilarTab();

    expect((await within(panel).findByTestId('date-estimate')).textContent).toBe('Estimated date: 1452 (1440–1465)');
    expect(within(panel).getByText('from 2 dated neighbours')).toBeTruthy();
    expect(within(panel).getByText('Script: Hybrida (75% of the neighbours)')).toBeTruthy();
    const table = within(panel).getByRole('table', { name: 'Nearest images' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['ImageDateDistance', 'Leiden, charter 121450-03-010.125', 'Deventer, charter 31461-11-300.500']);
    // Each neighbour opens at its line nearest to this image.
    expect(within(table).getByRole('link', { name: 'Leiden, charter 12' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${LEIDEN}&line=${leiden.documentOCRResultLineUUID}`);
    expect(estimated).toEqual([{ imageUuid: imageOf(1), model: BUILTIN_SIMILARITY_MODEL, dateField: FIELDS.dated.id, scriptField: FIELDS.script.id }]);
  });

  it("'Copy to date field' and 'Copy to script field' put the estimate into the form, which Save stores", async () => {
    const user = userEvent.setup();
    const { fetchMock } = similarityServer();
    const { panel } = await openSimilarTab();

    await user.click(await within(panel).findByRole('button', { name: 'Copy to date field' }));
    expect(await within(panel).findByText("'Dated' holds 1452-07-01.")).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Copy to script field' }));
    expect(await within(panel).findByText("'Script' holds Hybrida.")).toBeTruthy();
    expect(savedBodies(fetchMock)).toEqual([]);

    await user.click(screen.getByRole('tab', { name: 'Metadata' }));
    expect(field('Dated').value).toBe('1452-07-01');
    expect(field('Script').value).toBe('Hybrida');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Metadata is saved.')).toBeTruthy();
    const saved = savedBodies(fetchMock)[0]!.fields;
    expect(saved.find((entry) => entry.id === FIELDS.dated.id)?.value).toBe('1452-07-01');
    expect(saved.find((entry) => entry.id === FIELDS.script.id)?.value).toBe('Hybrida');
  });

  it('says why there is no estimate, and offers nothing to copy', async () => {
    const reason = "None of the 2 nearest images has a value for 'Dated'.";
    similarityServer({ estimate: { ...ESTIMATE, date: null, year: null, from: null, to: null, script: null, scriptShare: null, reason } });
    const { panel } = await openSimilarTab();
    expect(await within(panel).findByText(reason)).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Copy to date field' })).toBeNull();
    expect(within(panel).queryByTestId('date-estimate')).toBeNull();
  });

  it('says the field set has no date field and asks for no estimate, but still shows similar images', async () => {
    const { fetchMock } = similarityServer({ fields: () => jsonResponse(FIELD_LIST.filter((candidate) => candidate.type !== 'date')) });
    const { panel } = await openSimilarTab();
    expect(await within(panel).findByText('The field set has no date field, so no date is estimated.')).toBeTruthy();
    await waitFor(() => expect(resultLabels()).toEqual(['Leiden, charter 12', 'Deventer, charter 3']));
    expect(fetchedUrls(fetchMock).filter((url) => url.includes('dateestimate'))).toEqual([]);
  });

  it('without models says a SiameseNetwork job must run first, with a link to the jobs', async () => {
    const { fetchMock } = similarityServer({ models: [] });
    const { panel } = await openSimilarTab();
    const sentence = await within(panel).findByText(/Run a SiameseNetwork job on the image set first/);
    expect(sentence.textContent).toBe(
      'No image you can read has handwriting features yet. Run a SiameseNetwork job on the image set first: it cuts the lines into snippets and computes their features. See Jobs.',
    );
    expect(within(panel).getByRole('link', { name: 'Jobs' }).getAttribute('href')).toBe('/pim/jobs');
    expect(fetchedUrls(fetchMock).filter((url) => url.includes('comparewithimageset') || url.includes('dateestimate'))).toEqual([]);
  });

  it('searches with the model chosen when there are several', async () => {
    const user = userEvent.setup();
    const { compared, estimated } = similarityServer({ models: [BUILTIN, TRAINED] });
    const { panel } = await openSimilarTab();
    await within(panel).findByTestId('date-estimate');
    await user.click(within(panel).getByRole('textbox', { name: 'Model' }));
    await user.click(await screen.findByRole('option', { name: 'Charters 2024' }));
    await waitFor(() => expect(compared.map((body) => body.model)).toEqual([BUILTIN_SIMILARITY_MODEL, SIAMESE_MODEL]));
    await waitFor(() => expect(estimated.map((query) => query.model)).toEqual([BUILTIN_SIMILARITY_MODEL, SIAMESE_MODEL]));
  });

  it('asks again for the next image when the annotator moves on', async () => {
    const { compared, estimated } = similarityServer();
    await openSimilarTab();
    await waitFor(() => expect(compared).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(compared.map((body) => body.imageUuid)).toEqual([imageOf(1), imageOf(2)]));
    await waitFor(() => expect(estimated.map((query) => query.imageUuid)).toEqual([imageOf(1), imageOf(2)]));
  });

  it("says plainly that another server's image cannot be compared, and asks nothing", async () => {
    const foreign = 'https://iiif.example.org/psalter/manifest.json';
    const manifest = {
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      id: foreign,
      type: 'Manifest',
      label: { none: ['Psalter'] },
      items: [{ id: `${foreign}/c1`, type: 'Canvas', width: 10, height: 10, items: [{ id: `${foreign}/p1`, type: 'AnnotationPage', items: [{ id: `${foreign}/a1`, type: 'Annotation', motivation: 'painting', target: `${foreign}/c1`, body: { id: 'https://iiif.example.org/psalter/f1r.jpg', type: 'Image' } }] }] }],
    };
    const { fetchMock } = similarityServer();
    const rest = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => (String(input) === foreign ? jsonResponse(manifest) : rest(input, init)));
    const { panel } = await openSimilarTab(`/analyzeimagemanual?uri=${encodeURIComponent(foreign)}&fieldsetid=${FIELD_SET}`);
    expect(panel.textContent).toMatch(/^This image is not one of ours/);
    expect(fetchedUrls(fetchMock).filter((url) => url.includes('/siamese/'))).toEqual([]);
  });
});

describe('ownImageUuid', () => {
  const id = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';
  it('reads our Image service, or a request below it, on any host and under any prefix', () => {
    expect(ownImageUuid(`https://pim.example.org/iiif/3/${id}`)).toBe(id);
    expect(ownImageUuid(`http://localhost:8080/pim-server/iiif/3/${id.toUpperCase()}/full/max/0/default.jpg`)).toBe(id);
    expect(ownImageUuid(`https://pim.example.org/iiif/3/${encodeURIComponent(id)}/`)).toBe(id);
  });
  it('takes anything else as not ours', () => {
    expect(ownImageUuid('https://iiif.example.org/psalter/f1r.jpg')).toBeNull();
    expect(ownImageUuid(`https://pim.example.org/iiif/2/${id}`)).toBeNull();
    expect(ownImageUuid(`https://pim.example.org/iiif/3/${id}x`)).toBeNull();
    expect(ownImageUuid(`iiif/3/${id}`)).toBeNull();
  });
});
