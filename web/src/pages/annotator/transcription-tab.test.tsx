import type { Transcription, TranscriptionLayout } from '@pim/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import { T1, T2, transcription } from '../documentimage/comparison/fixtures.test-support';
import { annotatorPath, annotatorServer, FIELD_SET, FIELDS, MANIFEST, savedBodies, serviceOf } from './fixtures.test-support';

/**
 * OpenSeadragon as far as the viewer uses it: its handlers kept so the test can open the image,
 * the overlay put into the viewer's element, and image rectangles passed through unchanged, so
 * the test sees the rectangle the viewer was fitted to.
 */
const osd = vi.hoisted(() => ({ handlers: new Map<string, (event: unknown) => void>(), fitted: [] as unknown[] }));
vi.mock('openseadragon', () => ({
  default: vi.fn((options: { element: HTMLElement }) => ({
    destroy: vi.fn(),
    viewport: { fitBoundsWithConstraints: (rect: unknown) => osd.fitted.push(rect), zoomBy: vi.fn(), applyConstraints: vi.fn(), goHome: vi.fn() },
    addHandler: (name: string, handler: (event: unknown) => void) => {
      const before = osd.handlers.get(name);
      osd.handlers.set(name, (event) => {
        before?.(event);
        handler(event);
      });
    },
    addOverlay: ({ element }: { element: HTMLElement }) => options.element.appendChild(element),
    world: {
      getItemAt: () => ({
        getBounds: () => ({}),
        imageToViewportRectangle: (x: number, y: number, w: number, h: number) => ({ x, y, w, h }),
      }),
    },
  })),
}));

beforeEach(() => {
  osd.handlers.clear();
  osd.fitted = [];
});

const NEW_SCREEN = 'analyzeimagemanualnew';
/** The uuid of canvas n's image, as its Image service id names it. */
const imageOf = (n: number) => serviceOf(n).split('/').pop()!;
const PAGE = imageOf(1);

const OLDER = transcription(T1, 'Jn den eersten\nende die heren', {
  documentImageId: PAGE,
  transcriber: 'Kraken',
  language: 'la',
  analyzed: '2024-03-05T10:00:00.000Z',
  sourceFileName: 'f1r-kraken.xml',
});
const NEWER = transcription(T2, 'ende die heren\nvanden rade\nJnden eersten', {
  documentImageId: PAGE,
  transcriber: 'Loghi HTR',
  language: 'nl',
  analyzed: '2024-06-01T10:00:00.000Z',
  sourceFileName: 'f1r-loghi.xml',
});

const box = (x: number, y: number, w: number, h: number): [number, number][] => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];

/** The newer reading: the file writes the heading's region last, its ReadingOrder reads it first; one line has only a baseline. */
const NEWER_LAYOUT: TranscriptionLayout = {
  transcriptionId: T2,
  width: 2000,
  height: 3000,
  regions: [
    {
      id: 'r1',
      type: 'paragraph',
      coords: box(50, 350, 1900, 600),
      lines: [
        { index: 0, id: 'l1', text: 'ende die heren', coords: box(100, 400, 1000, 80), baseline: [[100, 470], [1100, 470]] },
        { index: 1, id: 'l2', text: 'vanden rade', coords: null, baseline: [[100, 600], [900, 600]] },
      ],
    },
    { id: 'r2', type: 'heading', coords: box(50, 50, 1900, 200), lines: [{ index: 2, id: 'l3', text: 'Jnden eersten', coords: box(100, 100, 800, 90), baseline: null }] },
  ],
  readingOrder: [2, 0, 1],
};
const OLDER_LAYOUT: TranscriptionLayout = {
  transcriptionId: T1,
  width: 2000,
  height: 3000,
  regions: [
    {
      id: null,
      type: null,
      coords: null,
      lines: [
        { index: 0, id: null, text: 'Jn den eersten', coords: box(100, 100, 800, 90), baseline: null },
        { index: 1, id: null, text: 'ende die heren', coords: box(100, 400, 1000, 80), baseline: null },
      ],
    },
  ],
  readingOrder: [0, 1],
};

interface TranscriptionServerOptions {
  /** The transcriptions of each image of the manifest by uuid (oldest first, as the server lists them); none for the others. */
  transcriptions?: Record<string, Transcription[]>;
  layouts?: TranscriptionLayout[];
  /** Answers the list of transcriptions instead, e.g. a failure. */
  list?: () => Response;
}

/** The annotator's server with an image's transcriptions and their layouts, and the field set picker of the chooser. */
function transcriptionServer({ transcriptions = { [PAGE]: [OLDER, NEWER] }, layouts = [OLDER_LAYOUT, NEWER_LAYOUT], list }: TranscriptionServerOptions = {}) {
  const server = annotatorServer();
  const rest = server.fetchMock.getMockImplementation()!;
  server.fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const listed = /^\/api\/pim\/documentimage\/([^/]+)\/transcriptions$/.exec(path);
    if (listed) return list ? list() : jsonResponse(transcriptions[listed[1]!] ?? []);
    const layout = /^\/api\/pim\/documentimage\/[^/]+\/transcriptions\/([^/]+)\/layout$/.exec(path);
    if (layout) return jsonResponse(layouts.find((candidate) => candidate.transcriptionId === layout[1]));
    if (path === '/api/pim/pimfieldset/autocomplete') return jsonResponse({ results: [{ uuid: FIELD_SET, name: 'Charter dating' }], pageSize: 20 });
    return rest(input, init);
  });
  return server;
}

/** Opens the annotator once the form holds the stored values of its image. */
async function openAnnotator(path: string) {
  const view = renderApp(path);
  await screen.findByLabelText('Shelfmark');
  await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
  return view;
}

async function openTranscriptionTab() {
  await userEvent.click(screen.getByRole('tab', { name: 'Transcription' }));
  return screen.getByRole('tabpanel', { name: 'Transcription' });
}

/** The lines as the tab lists them, by their text; the chosen ones. */
async function listedLines(panel: HTMLElement) {
  const list = await within(panel).findByRole('list', { name: 'Lines in reading order' });
  return within(list).getAllByRole('button');
}
const lineTexts = async (panel: HTMLElement) => (await listedLines(panel)).map((line) => line.textContent);
const chosenLines = async (panel: HTMLElement) => (await listedLines(panel)).filter((line) => line.getAttribute('aria-pressed') === 'true').map((line) => line.textContent);

/** The input of a field of the form. */
function field(label: string): HTMLInputElement {
  const input = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT' || element.tagName === 'TEXTAREA');
  if (!input) throw new Error(`no input labelled ${label}`);
  return input as HTMLInputElement;
}

/** The viewer has opened the image: the overlay goes over it. */
async function openImage() {
  await waitFor(() => expect(osd.handlers.has('open')).toBe(true));
  act(() => osd.handlers.get('open')!({}));
}

const transcriptionCalls = (fetchMock: ReturnType<typeof transcriptionServer>['fetchMock']) => fetchedUrls(fetchMock).filter((url) => url.includes('/transcriptions'));

describe('/pim/analyzeimagemanualnew', () => {
  it('is the annotator, titled as the route table names it, with the recognised text on its live Transcription tab, asked for once the tab is shown', async () => {
    const { fetchMock } = transcriptionServer();
    await openAnnotator(annotatorPath(undefined, NEW_SCREEN));

    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Analyze image manually (new)');
    expect(screen.getByRole('heading', { name: 'Charters of Utrecht' })).toBeTruthy();
    for (const name of ['Previous', 'Save', 'Next', 'Export', 'Show metadata from IIIF manifest']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Similar handwriting' })).toBeTruthy();
    expect(transcriptionCalls(fetchMock)).toEqual([]);

    const panel = await openTranscriptionTab();
    // The newest transcription, its lines in the order of its ReadingOrder, numbered so.
    expect(await lineTexts(panel)).toEqual(['1Jnden eersten', '2ende die heren', '3vanden rade']);
    // Who made it, as its name gives its file.
    expect(within(panel).getByTestId('transcriber').textContent).toBe('By Loghi HTR');
    expect(transcriptionCalls(fetchMock)).toEqual([`/api/pim/documentimage/${PAGE}/transcriptions`, `/api/pim/documentimage/${PAGE}/transcriptions/${T2}/layout`]);
  });

  it('lists the transcriptions newest first, each by its source, language and date, and shows the one picked', async () => {
    const user = userEvent.setup();
    transcriptionServer();
    await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    const panel = await openTranscriptionTab();
    const picker = await within(panel).findByRole('textbox', { name: 'Transcription' });
    expect((picker as HTMLInputElement).value).toBe('PAGE · f1r-loghi.xml · Dutch · Jun 1, 2024');

    await user.click(picker);
    const options = within(screen.getByRole('listbox', { name: 'Transcription' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['PAGE · f1r-loghi.xml · Dutch · Jun 1, 2024', 'PAGE · f1r-kraken.xml · Latin · Mar 5, 2024']);
    await user.click(screen.getByRole('option', { name: 'PAGE · f1r-kraken.xml · Latin · Mar 5, 2024' }));

    await waitFor(async () => expect(await lineTexts(panel)).toEqual(['1Jn den eersten', '2ende die heren']));
    expect(within(panel).getByTestId('transcriber').textContent).toBe('By Kraken');
  });

  it('marks a chosen line on the viewer and brings it into view; the arrow keys step to the next line; another image starts with none', async () => {
    const user = userEvent.setup();
    transcriptionServer();
    await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    await openImage();
    const panel = await openTranscriptionTab();
    const overlay = screen.getByTestId('viewer-overlay');
    expect(within(overlay).queryByTestId('marked-line')).toBeNull();

    await user.click(await within(panel).findByRole('button', { name: 'ende die heren' }));
    expect(await chosenLines(panel)).toEqual(['2ende die heren']);
    // Its outline, over the image in the layout's pixels; the viewer fitted to its box and the lines around it.
    const shape = await within(overlay).findByRole('img', { name: 'Chosen line 2: ende die heren' });
    expect(shape.querySelector('polygon')?.getAttribute('points')).toBe('100,400 1100,400 1100,480 100,480');
    expect(overlay.getAttribute('viewBox')).toBe('0 0 2000 3000');
    expect(osd.fitted.at(-1)).toEqual({ x: 0, y: 240, w: 1200, h: 400 });

    // The focus stays on the list: ↓ chooses the next line, drawn by the band above its baseline.
    await user.keyboard('{ArrowDown}');
    expect(await chosenLines(panel)).toEqual(['3vanden rade']);
    expect(document.activeElement?.textContent).toBe('3vanden rade');
    const band = await within(overlay).findByRole('img', { name: 'Chosen line 3: vanden rade' });
    expect(band.querySelector('rect')?.getAttribute('y')).toBe('525');
    await user.keyboard('{Home}');
    expect(await chosenLines(panel)).toEqual(['1Jnden eersten']);

    // Kept while another tab is shown.
    await user.click(screen.getByRole('tab', { name: 'Metadata' }));
    expect(within(overlay).getByRole('img', { name: 'Chosen line 1: Jnden eersten' })).toBeTruthy();
    const again = await openTranscriptionTab();
    expect(await chosenLines(again)).toEqual(['1Jnden eersten']);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('image-position').textContent).toBe('Image 2 of 3 · f. 2r'));
    expect(await within(screen.getByRole('tabpanel', { name: 'Transcription' })).findByText(/This image has no transcription yet/)).toBeTruthy();
    expect(screen.queryByTestId('marked-line')).toBeNull();
  });

  it('copies the chosen line into a text field, or at the end of a notes field, which Save stores', async () => {
    const user = userEvent.setup();
    const { fetchMock } = transcriptionServer();
    await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    const panel = await openTranscriptionTab();

    await user.click(await within(panel).findByRole('button', { name: 'Jnden eersten' }));
    const target = within(panel).getByRole('textbox', { name: 'Copy the chosen line into' });
    expect((target as HTMLInputElement).value).toBe('Shelfmark');
    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText("'Shelfmark' now holds the line. Save to keep it.")).toBeTruthy();

    await user.click(target);
    const targets = within(screen.getByRole('listbox', { name: 'Copy the chosen line into' })).getAllByRole('option');
    expect(targets.map((option) => option.textContent)).toEqual(['Shelfmark', 'Notes']);
    await user.click(screen.getByRole('option', { name: 'Notes' }));
    await user.click(within(panel).getByRole('button', { name: 'ende die heren' }));
    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    await user.click(within(panel).getByRole('button', { name: 'vanden rade' }));
    await user.click(within(panel).getByRole('button', { name: 'Copy' }));

    await user.click(screen.getByRole('tab', { name: 'Metadata' }));
    expect(field('Shelfmark').value).toBe('Jnden eersten');
    expect(field('Notes').value).toBe('ende die heren\nvanden rade');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(savedBodies(fetchMock)).toHaveLength(1));
    const values = Object.fromEntries(savedBodies(fetchMock)[0]!.fields.map((entry) => [entry.id, entry.value]));
    expect(values[FIELDS.shelfmark.id]).toBe('Jnden eersten');
    expect(values[FIELDS.notes.id]).toBe('ende die heren\nvanden rade');
  });

  it("says that another server's image has no transcription here, and points to the Jobs page, asking nothing", async () => {
    const foreign = 'https://iiif.example.org/psalter/manifest.json';
    const manifest = {
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      id: foreign,
      type: 'Manifest',
      label: { none: ['Psalter'] },
      items: [
        {
          id: 'https://iiif.example.org/psalter/c1',
          type: 'Canvas',
          label: { none: ['f. 1r'] },
          items: [
            {
              id: 'https://iiif.example.org/psalter/c1/page',
              type: 'AnnotationPage',
              items: [
                {
                  id: 'https://iiif.example.org/psalter/c1/page/image',
                  type: 'Annotation',
                  motivation: 'painting',
                  body: { id: 'https://iiif.example.org/iiif/3/f1r/full/max/0/default.jpg', type: 'Image', service: [{ id: 'https://iiif.example.org/iiif/3/f1r', type: 'ImageService3' }] },
                  target: 'https://iiif.example.org/psalter/c1',
                },
              ],
            },
          ],
        },
      ],
    };
    const { fetchMock } = transcriptionServer();
    const rest = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === foreign) return jsonResponse(manifest);
      if (String(input).startsWith('https://iiif.example.org/iiif/3/f1r/info.json')) return jsonResponse({ id: 'https://iiif.example.org/iiif/3/f1r', width: 2000, height: 3000 });
      return rest(input, init);
    });
    await openAnnotator(`/${NEW_SCREEN}?uri=${encodeURIComponent(foreign)}&fieldsetid=${FIELD_SET}`);

    const panel = await openTranscriptionTab();
    expect(panel.textContent).toMatch(/^This image is not one of ours .* so PIM holds no transcription of it\./);
    expect(within(panel).getByRole('link', { name: 'Jobs' }).getAttribute('href')).toBe('/pim/jobs');
    expect(transcriptionCalls(fetchMock)).toEqual([]);
  });

  it('says that an image has no transcription yet, shows the text of one without lines, and offers to try a failed call again', async () => {
    transcriptionServer({ transcriptions: {} });
    const none = await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    let panel = await openTranscriptionTab();
    expect((await within(panel).findByText(/^This image has no transcription yet\./)).textContent).toContain('OCR or HTR job');
    expect(within(panel).getByRole('link', { name: 'Jobs' }).getAttribute('href')).toBe('/pim/jobs');
    none.unmount();

    const plain = transcription(T1, 'Jtem so hat der herr', { documentImageId: PAGE, format: 'hocr' });
    transcriptionServer({ transcriptions: { [PAGE]: [plain] }, layouts: [{ transcriptionId: T1, width: 2000, height: 3000, regions: [], readingOrder: [] }] });
    const withoutLines = await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    panel = await openTranscriptionTab();
    expect(await within(panel).findByText('This transcription has no lines with a place on the image. Its text:')).toBeTruthy();
    expect(within(panel).getByText('Jtem so hat der herr')).toBeTruthy();
    withoutLines.unmount();

    let failing = true;
    transcriptionServer({ list: () => (failing ? jsonResponse({ error: 'internal', message: 'The database is away.' }, 500) : jsonResponse([OLDER, NEWER])) });
    await openAnnotator(annotatorPath(undefined, NEW_SCREEN));
    panel = await openTranscriptionTab();
    expect(await within(panel).findByText('The transcriptions of this image could not be loaded: The database is away.')).toBeTruthy();
    failing = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await lineTexts(panel)).toEqual(['1Jnden eersten', '2ende die heren', '3vanden rade']);
  });

  it("keeps the spec's /pim/analyzeimagemanual as it was: its Transcription tab a placeholder that asks for nothing", async () => {
    const { fetchMock } = transcriptionServer();
    await openAnnotator(annotatorPath());
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Analyze image manually');
    const panel = await openTranscriptionTab();
    expect(panel.textContent).toBe('This part is not available in this version yet.');
    expect(transcriptionCalls(fetchMock)).toEqual([]);
  });

  describe('stays on the newer screen', () => {
    it("links to the metadata overview, whose 'Continue analyzing' returns to this screen and image", async () => {
      const user = userEvent.setup();
      transcriptionServer();
      const { router } = await openAnnotator(annotatorPath(serviceOf(2), NEW_SCREEN));
      const link = screen.getByRole('link', { name: 'Metadata overview' });
      expect(Object.fromEntries(new URL(link.getAttribute('href')!, 'http://localhost').searchParams)).toEqual({
        uri: MANIFEST,
        fieldsetid: FIELD_SET,
        imageUri: serviceOf(2),
        screen: NEW_SCREEN,
      });

      await user.click(link);
      await user.click(await screen.findByRole('link', { name: 'Continue analyzing' }));
      await waitFor(() => expect(router.state.location.pathname).toBe(`/pim/${NEW_SCREEN}`));
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ uri: MANIFEST, fieldsetid: FIELD_SET, imageUri: serviceOf(2) });
      expect(await screen.findByText('Image 2 of 3 · f. 2r')).toBeTruthy();
    });

    it('offers the field set chooser without a field set, whose Continue opens this screen', async () => {
      const user = userEvent.setup();
      transcriptionServer();
      const { router } = renderApp(`/${NEW_SCREEN}?uri=${encodeURIComponent(MANIFEST)}`);
      expect((await screen.findByRole('alert')).textContent).toBe('no fieldsetid.');

      await user.click(screen.getByRole('link', { name: 'Choose a field set for this manifest' }));
      await user.click(await screen.findByLabelText('Field set'));
      await user.click(await screen.findByRole('option', { name: 'Charter dating' }));
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(router.state.location.pathname).toBe(`/pim/${NEW_SCREEN}`));
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ uri: MANIFEST, fieldsetid: FIELD_SET });
      expect(await screen.findByLabelText('Shelfmark')).toBeTruthy();
    });
  });
});
