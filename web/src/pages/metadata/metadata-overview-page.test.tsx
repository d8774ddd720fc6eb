import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import {
  callsTo,
  DATASET,
  FIELD_SET,
  fieldSetFixture,
  IMAGE_1,
  IMAGE_2,
  metadataServer,
  OVERVIEW,
  overviewApiPath,
} from './fixtures.test-support';

const OVERVIEW_PATH = overviewApiPath(DATASET, FIELD_SET);
const pagePath = (extra = '') => `/metadataoverview?uri=${encodeURIComponent(DATASET)}&fieldsetid=${FIELD_SET}${extra}`;
const annotatorHref = (imageUri?: string) =>
  `/pim/analyzeimagemanual?uri=${encodeURIComponent(DATASET)}&fieldsetid=${FIELD_SET}` +
  (imageUri ? `&imageUri=${encodeURIComponent(imageUri)}` : '');

function server(overview = OVERVIEW, exported = () => new Response(new Blob(['uri,datasetUri\n']))) {
  return metadataServer((url) => {
    if (url.pathname === OVERVIEW_PATH) return jsonResponse(overview);
    if (url.pathname === `${OVERVIEW_PATH}/export`) return exported();
    if (url.pathname === `/api/pim/pimfieldset/${FIELD_SET}`) return jsonResponse(fieldSetFixture(FIELD_SET, 'Dating'));
    return undefined;
  });
}

/** The files the browser was asked to save. */
let saved: { fileName: string; href: string }[] = [];

beforeEach(() => {
  saved = [];
  // jsdom has no object URLs; this stands in for the browser's.
  URL.createObjectURL = vi.fn(() => 'blob:test/1');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ fileName: this.download, href: this.getAttribute('href') ?? '' });
  });
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('/pim/metadataoverview', () => {
  it("shows 'Metadata Overview' with the dataset, a column per field headed by its label and a row per image", async () => {
    server();
    renderApp(pagePath());
    expect(await screen.findByRole('heading', { name: 'Metadata Overview' })).toBeTruthy();
    expect(screen.getByText(`Dataset: ${DATASET}`)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Metadata Overview' });
    expect(await screen.findByText('Field set: Dating')).toBeTruthy();

    const [header, first, second] = within(table).getAllByRole('row');
    const headers = within(header!).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['uri', 'Dataset uri', 'Script type', 'notes']);
    // The name is the tooltip where the label differs from it.
    expect(within(headers[2]!).getByTitle('script').textContent).toBe('Script type');

    expect(within(first!).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      IMAGE_1,
      DATASET,
      'Textualis',
      'Line one\nLine two\nLine three\nLine fourread more',
    ]);
    expect(within(second!).getAllByRole('cell').map((td) => td.textContent)).toEqual([IMAGE_2, DATASET, 'Hybrida', 'Rubric, "red" ink']);
    // Each image's uri opens the annotator at that image.
    expect(within(second!).getByRole('link', { name: IMAGE_2 }).getAttribute('href')).toBe(annotatorHref(IMAGE_2));
  });

  it("links 'Continue analyzing' back to the annotator, at the image the user came from when the address names one", async () => {
    server();
    const view = renderApp(pagePath());
    const link = await screen.findByRole('link', { name: 'Continue analyzing' });
    expect(link.getAttribute('href')).toBe(annotatorHref());
    view.unmount();

    renderApp(pagePath(`&imageUri=${encodeURIComponent(IMAGE_2)}`));
    const back = await screen.findByRole('link', { name: 'Continue analyzing' });
    expect(back.getAttribute('href')).toBe(annotatorHref(IMAGE_2));
  });

  it('exports metadata.csv, fetched with the sign-in', async () => {
    const fetchMock = server();
    renderApp(pagePath());
    await screen.findByRole('table', { name: 'Metadata Overview' });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual([{ fileName: 'metadata.csv', href: 'blob:test/1' }]));
    expect(callsTo(fetchMock, `${OVERVIEW_PATH}/export`)).toEqual([{ query: {}, auth: 'Google tok' }]);
  });

  it("shows the server's message and saves nothing when the export fails", async () => {
    server(OVERVIEW, () => jsonResponse({ error: 'forbidden', message: 'You may not read this field set.' }, 403));
    renderApp(pagePath());
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    expect(await screen.findByText('metadata.csv could not be downloaded: You may not read this field set.')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('says how to fill an empty overview instead of showing an empty grid', async () => {
    server({ ...OVERVIEW, data: [] });
    renderApp(pagePath(`&imageUri=${encodeURIComponent(IMAGE_1)}`));
    expect(await screen.findByText('Nothing annotated yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Start annotating' }).getAttribute('href')).toBe(annotatorHref(IMAGE_1));
  });

  it("answers a missing fieldsetid with 'no fieldsetid.' and asks nothing of the server", async () => {
    const fetchMock = server();
    renderApp(`/metadataoverview?uri=${encodeURIComponent(DATASET)}`);
    expect(await screen.findByText('no fieldsetid.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    // The session asks who is signed in; the screen asks nothing.
    expect(fetchedUrls(fetchMock).filter((url) => url.startsWith('/api/pim/') && url !== '/api/pim/users/self')).toEqual([]);
  });

  it('answers a missing uri, and both when both are missing', async () => {
    server();
    const view = renderApp(`/metadataoverview?fieldsetid=${FIELD_SET}`);
    expect(await screen.findByText('no uri: the address does not say which dataset (manifest) to show.')).toBeTruthy();
    expect(screen.queryByText('no fieldsetid.')).toBeNull();
    view.unmount();

    renderApp('/metadataoverview');
    expect(await screen.findByText('no fieldsetid.')).toBeTruthy();
    expect(screen.getByText(/^no uri:/)).toBeTruthy();
  });

  it("shows the server's refusal in place of the table", async () => {
    metadataServer((url) =>
      url.pathname === OVERVIEW_PATH ? jsonResponse({ error: 'not_found', message: 'There is no field set with this id.' }, 404) : undefined,
    );
    renderApp(pagePath());
    // The inline alert, beside the toast every failed call shows.
    const title = await screen.findByText('The overview could not be loaded');
    const alert = title.closest<HTMLElement>('[role="alert"]');
    expect(within(alert!).getByText('There is no field set with this id.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
