import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp } from '../../test/render';
import {
  annotatorPath,
  annotatorServer,
  FIELD_SET,
  FIELDS,
  IMAGE_SET,
  MANIFEST,
  savedBodies,
  serviceOf,
  storedValue,
  threePages,
  USER,
} from './fixtures.test-support';

const osd = vi.hoisted(() => {
  const viewport = { zoomBy: vi.fn(), applyConstraints: vi.fn(), goHome: vi.fn() };
  return { create: vi.fn(() => ({ viewport, destroy: vi.fn(), addHandler: vi.fn() })) };
});
vi.mock('openseadragon', () => ({ default: osd.create }));

beforeEach(() => osd.create.mockClear());

/** The input of a field; a select's option list carries its label too. */
function field(label: string): HTMLInputElement {
  const input = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT' || element.tagName === 'TEXTAREA');
  if (!input) throw new Error(`no input labelled ${label}`);
  return input as HTMLInputElement;
}
const position = () => screen.getByTestId('image-position').textContent;
const button = (name: string) => screen.getByRole('button', { name });

/** Opens the annotator and waits until the form holds the stored values of its image. */
async function openAnnotator(path = annotatorPath()) {
  const view = renderApp(path);
  await screen.findByLabelText('Shelfmark');
  await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
  return view;
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(field(label));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('/pim/analyzeimagemanual', () => {
  it('shows the first canvas in the viewer and a form with each field type its own input', async () => {
    annotatorServer();
    await openAnnotator();

    expect(screen.getByRole('heading', { name: 'Charters of Utrecht' })).toBeTruthy();
    expect(await screen.findByText('Field set: Charter dating')).toBeTruthy();
    expect(position()).toBe('Image 1 of 3 · f. 1r');
    await waitFor(() => expect(osd.create).toHaveBeenCalledWith(expect.objectContaining({ tileSources: expect.objectContaining({ id: serviceOf(1) }) })));

    expect(field('uri').value).toBe(serviceOf(1));
    expect(field('uri').readOnly).toBe(true);
    expect(field('Dataset uri').value).toBe(MANIFEST);
    expect(field('Dataset uri').readOnly).toBe(true);
    expect(field('Dated').type).toBe('date');
    expect(screen.getByText('When the page was written')).toBeTruthy();
    expect(field('Folios').getAttribute('inputmode')).toBe('decimal');
    expect(screen.getByRole('checkbox', { name: 'Reviewed' })).toBeTruthy();
    expect(field('Notes').tagName).toBe('TEXTAREA');
    expect(field('Shelfmark').type).toBe('text');

    const user = userEvent.setup();
    const options = (label: string) => within(screen.getByRole('listbox', { name: label })).getAllByRole('option').map((option) => option.textContent);
    await user.click(field('Hand'));
    expect(options('Hand')).toEqual(['A', 'B']);
    await user.keyboard('{Escape}');
    await user.click(field('Script'));
    expect(options('Script')).toEqual([
      'Caroline', 'Cursiva', 'Humanistic', 'Humanistic_Cursive', 'Hybrida', 'Uncial', 'Praegothica',
      'Southern_Textualis', 'Half_uncial', 'Semihybrida', 'Semitextualis', 'Textualis',
    ]);
    await user.keyboard('{Escape}');
    await user.click(field('Annotator'));
    expect(await screen.findByRole('option', { name: USER.name })).toBeTruthy();
  });

  it('offers the Transcription tab as a placeholder, and shows the shortcuts', async () => {
    annotatorServer();
    await openAnnotator();
    expect(screen.getByRole('tab', { name: 'Similar handwriting' })).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Transcription' }));
    expect(screen.getByRole('tabpanel', { name: 'Transcription' }).textContent).toBe('This part is not available in this version yet.');
    expect(screen.getByTestId('shortcut-hints').textContent).toBe('Alt + ← Previous' + 'Ctrl + S Save' + 'Alt + → Next');
    expect(button('Next').getAttribute('title')).toBe('Next (Alt+→)');
    expect(button('Save').getAttribute('title')).toBe('Save (Ctrl+S)');
  });

  it("says 'no fieldsetid.' without a field set and 'no fieldset found.' for an unknown one", async () => {
    annotatorServer();
    renderApp(`/analyzeimagemanual?uri=${encodeURIComponent(MANIFEST)}`);
    expect((await screen.findByRole('alert')).textContent).toBe('no fieldsetid.');

    annotatorServer({ fields: () => jsonResponse({ error: 'not_found', message: 'No field set with this id.' }, 404) });
    renderApp(annotatorPath());
    expect(await screen.findByText('no fieldset found.')).toBeTruthy();
  });

  it('names what is wrong with the manifest: no canvases, a server error, not a manifest', async () => {
    annotatorServer({ manifest: { ...threePages, items: [] } });
    const empty = renderApp(annotatorPath());
    expect(await screen.findByText('Manifest does not contain any canvases.')).toBeTruthy();
    empty.unmount();

    // Our server's answer for a set without images says the same.
    annotatorServer({ manifest: { error: 'no_canvases', message: 'The image set Empty has no images, so it has no manifest.', details: null } });
    const emptySet = renderApp(annotatorPath());
    expect(await screen.findByText('Manifest does not contain any canvases.')).toBeTruthy();
    emptySet.unmount();

    annotatorServer({ manifest: { code: 404, message: 'No such image set.' } });
    const failed = renderApp(annotatorPath());
    expect(await screen.findByText('An error has occurred on the server side.: No such image set.')).toBeTruthy();
    failed.unmount();

    annotatorServer({ manifest: { type: 'Collection', items: [] } });
    renderApp(annotatorPath());
    expect(await screen.findByText('The address points to a IIIF Collection, not to a manifest.')).toBeTruthy();
  });

  it('says so when the answer is not JSON, or the server fails without a manifest', async () => {
    const { fetchMock } = annotatorServer();
    const rest = fetchMock.getMockImplementation()!;
    let answer = new Response('<html>Sign in first</html>', { headers: { 'Content-Type': 'text/html' } });
    fetchMock.mockImplementation(async (input, init) => (String(input) === MANIFEST ? answer : rest(input, init)));
    const page = renderApp(annotatorPath());
    expect(await screen.findByText('The address does not point to a IIIF manifest: its answer is not JSON.')).toBeTruthy();
    page.unmount();

    answer = new Response('Bad gateway', { status: 502 });
    renderApp(annotatorPath());
    expect(await screen.findByText('The manifest could not be loaded: HTTP 502: Bad gateway')).toBeTruthy();
  });

  it("reads another server's manifest without our token, and shows a picture without Image service as it is", async () => {
    const foreign = 'https://iiif.example.org/psalter/manifest.json';
    const picture = 'https://iiif.example.org/psalter/f1r.jpg';
    const manifest = {
      '@context': 'http://iiif.io/api/presentation/2/context.json',
      '@id': foreign,
      '@type': 'sc:Manifest',
      label: 'Psalter',
      sequences: [{ canvases: [{ '@id': 'https://iiif.example.org/psalter/c1', '@type': 'sc:Canvas', label: 'f. 1r', images: [{ '@type': 'oa:Annotation', motivation: 'sc:painting', on: 'https://iiif.example.org/psalter/c1', resource: { '@id': picture, '@type': 'dctypes:Image' } }] }] }],
    };
    const { fetchMock } = annotatorServer();
    const rest = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => (String(input) === foreign ? jsonResponse(manifest) : rest(input, init)));
    renderApp(`/analyzeimagemanual?uri=${encodeURIComponent(foreign)}&fieldsetid=${FIELD_SET}`);

    await screen.findByLabelText('Shelfmark');
    expect(field('uri').value).toBe(picture);
    expect(screen.getByText('This image has no IIIF Image service: it is shown as a single picture.')).toBeTruthy();
    await waitFor(() =>
      expect(osd.create).toHaveBeenCalledWith(expect.objectContaining({ tileSources: { type: 'image', url: picture }, loadTilesWithAjax: false, ajaxHeaders: {} })),
    );
    const manifestCall = fetchMock.mock.calls.find(([input]) => String(input) === foreign);
    expect(new Headers(manifestCall?.[1]?.headers).get('Authorization')).toBeNull();
  });

  it('shows the first image, and says so, when imageUri is not in the manifest', async () => {
    annotatorServer();
    await openAnnotator(annotatorPath('https://elsewhere.example.org/iiif/x'));
    expect(screen.getByText('The image https://elsewhere.example.org/iiif/x is not in this manifest; the first image is shown instead.')).toBeTruthy();
    expect(position()).toBe('Image 1 of 3 · f. 1r');
  });

  it('saves every field with its value, the image and the manifest, and the manifest label as the dataset name', async () => {
    const user = userEvent.setup();
    const { fetchMock } = annotatorServer();
    await openAnnotator();

    fireEvent.change(field('Dated'), { target: { value: '1450-03-01' } });
    await user.type(field('Folios'), '12');
    await user.click(screen.getByRole('checkbox', { name: 'Reviewed' }));
    await choose(user, 'Hand', 'B');
    await choose(user, 'Script', 'Textualis');
    await choose(user, 'Annotator', USER.name);
    await choose(user, 'Related image', 'f. 9r');
    await user.type(field('Shelfmark'), 'Ms. 12, "a"');
    await user.type(field('Notes'), 'line one{Enter}line two');
    await user.click(button('Save'));

    expect(await screen.findByText('Metadata is saved.')).toBeTruthy();
    expect(savedBodies(fetchMock)).toEqual([
      {
        datasetName: 'Charters of Utrecht',
        fields: [
          { id: FIELDS.uri.id, value: serviceOf(1) },
          { id: FIELDS.datasetUri.id, value: MANIFEST },
          { id: FIELDS.dated.id, value: '1450-03-01' },
          { id: FIELDS.folios.id, value: 12 },
          { id: FIELDS.reviewed.id, value: true },
          { id: FIELDS.hand.id, value: 'B' },
          { id: FIELDS.script.id, value: 'Textualis' },
          { id: FIELDS.annotator.id, value: USER.uuid },
          { id: FIELDS.related.id, value: '55555555-5555-4555-8555-555555555559' },
          { id: FIELDS.shelfmark.id, value: 'Ms. 12, "a"' },
          { id: FIELDS.notes.id, value: 'line one\nline two' },
        ],
      },
    ]);
    expect(position()).toBe('Image 1 of 3 · f. 1r');
  });

  it('keeps what is typed while the stored values load, laid over them', async () => {
    const user = userEvent.setup();
    let release = () => undefined as void;
    const storedAfter = new Promise<void>((resolve) => (release = resolve));
    annotatorServer({ stored: { [serviceOf(1)]: [storedValue(FIELDS.folios, '7'), storedValue(FIELDS.shelfmark, 'Ms. 1')] }, storedAfter });
    renderApp(annotatorPath());
    await screen.findByLabelText('Loading the stored values of this image');
    await user.type(field('Shelfmark'), 'Ms. 2');
    release();
    await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
    expect(field('Shelfmark').value).toBe('Ms. 2');
    expect(field('Folios').value).toBe('7');
  });

  it('does not send a value the field cannot take, and says why beside the field', async () => {
    const { fetchMock } = annotatorServer({ stored: { [serviceOf(1)]: [storedValue(FIELDS.hand, 'C')] } });
    await openAnnotator();
    expect(screen.getByText("'C' is not one of the values of 'Hand'.")).toBeTruthy();
    await userEvent.click(button('Save'));
    expect(await screen.findByText('Some values cannot be saved: correct the fields marked in red first.')).toBeTruthy();
    expect(savedBodies(fetchMock)).toEqual([]);
  });

  it('Next saves, then shows the next image, keeps copyValue fields, empties the others and puts imageUri in the address', async () => {
    const user = userEvent.setup();
    const { fetchMock } = annotatorServer();
    const { router } = await openAnnotator();

    fireEvent.change(field('Dated'), { target: { value: '1450-03-01' } });
    await choose(user, 'Script', 'Hybrida');
    await choose(user, 'Hand', 'A');
    await choose(user, 'Related image', 'f. 9r');
    await user.type(field('Shelfmark'), 'Ms. 1');
    await user.click(screen.getByRole('checkbox', { name: 'Reviewed' }));
    await user.click(button('Next'));

    await waitFor(() => expect(position()).toBe('Image 2 of 3 · f. 2r'));
    expect(savedBodies(fetchMock)).toHaveLength(1);
    expect(savedBodies(fetchMock)[0]?.fields[0]).toEqual({ id: FIELDS.uri.id, value: serviceOf(1) });
    expect(new URLSearchParams(router.state.location.search).get('imageUri')).toBe(serviceOf(2));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(field('uri').value).toBe(serviceOf(2));
    await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
    expect(field('Dated').value).toBe('1450-03-01');
    expect(field('Script').value).toBe('Hybrida');
    expect(field('Shelfmark').value).toBe('');
    expect(field('Hand').value).toBe('');
    expect(field('Related image').value).toBe('');
    expect((screen.getByRole('checkbox', { name: 'Reviewed' }) as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(osd.create).toHaveBeenLastCalledWith(expect.objectContaining({ tileSources: expect.objectContaining({ id: serviceOf(2) }) })));
  });

  it('loads the stored values of the new image over the carried ones, and shows the saved values on the way back', async () => {
    const user = userEvent.setup();
    const { fetchMock } = annotatorServer({
      stored: {
        [serviceOf(2)]: [storedValue(FIELDS.dated, '1302-07-11'), storedValue(FIELDS.annotator, USER.uuid, USER.name), storedValue(FIELDS.folios, '7')],
      },
    });
    await openAnnotator();
    fireEvent.change(field('Dated'), { target: { value: '1450-03-01' } });
    await choose(user, 'Script', 'Hybrida');
    await user.type(field('Shelfmark'), 'Ms. 1');
    await user.click(button('Next'));

    await waitFor(() => expect(field('Dated').value).toBe('1302-07-11'));
    expect(field('Script').value).toBe('Hybrida');
    expect(field('Annotator').value).toBe(USER.name);
    expect(field('Folios').value).toBe('7');
    expect(field('Shelfmark').value).toBe('');

    await user.click(button('Previous'));
    await waitFor(() => expect(position()).toBe('Image 1 of 3 · f. 1r'));
    await waitFor(() => expect(field('Shelfmark').value).toBe('Ms. 1'));
    expect(field('Dated').value).toBe('1450-03-01');
    expect(field('Annotator').value).toBe('');
    // Image 2 was saved on the way back, with its stored user and the carried script.
    const second = savedBodies(fetchMock)[1]!;
    expect(second.fields.find((entry) => entry.id === FIELDS.uri.id)?.value).toBe(serviceOf(2));
    expect(second.fields.find((entry) => entry.id === FIELDS.annotator.id)?.value).toBe(USER.uuid);
    expect(second.fields.find((entry) => entry.id === FIELDS.script.id)?.value).toBe('Hybrida');
  });

  it('opens at the image of imageUri, so a reload keeps the place', async () => {
    annotatorServer({ stored: { [serviceOf(2)]: [storedValue(FIELDS.shelfmark, 'Ms. 2')] } });
    await openAnnotator(annotatorPath(serviceOf(2)));
    expect(position()).toBe('Image 2 of 3 · f. 2r');
    expect(field('Shelfmark').value).toBe('Ms. 2');
  });

  it('at the last image Next saves and says it is the end; at the first Previous saves and says it is the beginning', async () => {
    const { fetchMock } = annotatorServer();
    const last = await openAnnotator(annotatorPath(serviceOf(3)));
    await userEvent.click(button('Next'));
    expect(await screen.findByText('You have reached the end of the manuscript.')).toBeTruthy();
    expect(position()).toBe('Image 3 of 3 · f. 3r');
    expect(savedBodies(fetchMock).map((body) => body.fields[0]?.value)).toEqual([serviceOf(3)]);
    last.unmount();

    const { fetchMock: second } = annotatorServer();
    await openAnnotator();
    await userEvent.click(button('Previous'));
    expect(await screen.findByText('You have reached the beginning of the manuscript.')).toBeTruthy();
    expect(position()).toBe('Image 1 of 3 · f. 1r');
    expect(savedBodies(second).map((body) => body.fields[0]?.value)).toEqual([serviceOf(1)]);
  });

  it('stays on the image when saving fails', async () => {
    const { fetchMock } = annotatorServer({ save: () => jsonResponse({ error: 'validation_failed', message: "'Folios' takes a number." }, 400) });
    const { router } = await openAnnotator();
    await userEvent.click(button('Next'));
    expect(await screen.findByText("Unexpected server response: 'Folios' takes a number.")).toBeTruthy();
    expect(savedBodies(fetchMock)).toHaveLength(1);
    expect(position()).toBe('Image 1 of 3 · f. 1r');
    expect(new URLSearchParams(router.state.location.search).get('imageUri')).toBeNull();
  });

  it('saves with Ctrl+S and moves with Alt+→ and Alt+← while the focus is in an input', async () => {
    const user = userEvent.setup();
    const { fetchMock } = annotatorServer();
    await openAnnotator();
    await user.type(field('Shelfmark'), 'Ms. 1');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('Metadata is saved.')).toBeTruthy();
    expect(savedBodies(fetchMock)).toHaveLength(1);

    await user.click(field('Notes'));
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    await waitFor(() => expect(position()).toBe('Image 2 of 3 · f. 2r'));
    await waitFor(() => expect(screen.queryByLabelText('Loading the stored values of this image')).toBeNull());
    // The focus stays in the field: the next page is typed straight away.
    expect(document.activeElement).toBe(field('Notes'));
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    await waitFor(() => expect(position()).toBe('Image 1 of 3 · f. 1r'));
    expect(savedBodies(fetchMock)).toHaveLength(3);
  });

  it('reads the manifest of an image set given by id', async () => {
    const { fetchMock } = annotatorServer();
    await openAnnotator(`/analyzeimagemanual?id=${IMAGE_SET}&fieldsetid=${FIELD_SET}`);
    expect(field('Dataset uri').value).toBe(MANIFEST);
    const manifestCall = fetchMock.mock.calls.find(([input]) => String(input) === MANIFEST);
    expect(new Headers(manifestCall?.[1]?.headers).get('Authorization')).toBe('Google tok');
  });

  it("shows the manifest's and the canvas's metadata as text, HTML not put into the page", async () => {
    annotatorServer();
    await openAnnotator();
    await userEvent.click(button('Show metadata from IIIF manifest'));
    const dialog = await screen.findByRole('dialog', { name: 'Metadata from IIIF manifest' });
    expect(within(dialog).getByText('Charters of Utrecht')).toBeTruthy();
    expect(within(dialog).getByText('Ada Researcher')).toBeTruthy();
    expect(within(dialog).getByText('f. 1r')).toBeTruthy();
    expect(within(dialog).getByText('Bold note of page 1')).toBeTruthy();
    expect(dialog.querySelector('img, b')).toBeNull();
  });

  it('links to the metadata overview at this image', async () => {
    annotatorServer();
    await openAnnotator(annotatorPath(serviceOf(2)));
    const link = screen.getByRole('link', { name: 'Metadata overview' });
    const query = new URL(link.getAttribute('href') ?? '', 'http://localhost').searchParams;
    expect(link.getAttribute('href')).toMatch(/^\/pim\/metadataoverview\?/);
    expect(Object.fromEntries(query)).toEqual({ uri: MANIFEST, fieldsetid: FIELD_SET, imageUri: serviceOf(2) });
  });

  describe('Export', () => {
    let saved: string[] = [];
    beforeEach(() => {
      saved = [];
      // jsdom has no object URLs and does not save files: the link's click stands for the download.
      URL.createObjectURL = vi.fn(() => 'blob:metadata');
      URL.revokeObjectURL = vi.fn();
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push(this.download);
      });
    });
    afterEach(() => {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    });

    it('downloads metadata.csv of the manifest under the field set, with the sign-in', async () => {
      const { fetchMock } = annotatorServer();
      await openAnnotator();
      await userEvent.click(button('Export'));
      await waitFor(() => expect(saved).toEqual(['metadata.csv']));
      const call = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/export'));
      expect(String(call?.[0])).toBe(`/api/pim/metadata/${encodeURIComponent(MANIFEST)}/${FIELD_SET}/export`);
      expect(new Headers(call?.[1]?.headers).get('Authorization')).toBe('Google tok');
    });
  });
});
