import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderApp } from '../../test/render';
import {
  callsTo,
  DATASET,
  DATASETS,
  datasetImagesApiPath,
  FIELD_SET,
  IMAGE_1,
  IMAGE_2,
  IMAGES,
  metadataServer,
  OTHER_DATASET,
  OTHER_FIELD_SET,
} from './fixtures.test-support';

const DATASETS_PATH = '/api/pim/metadata/annotateddatasets';

/** The datasets answer waits for `release`, so the test sees what shows while it loads. */
function server({ datasets = DATASETS, release = Promise.resolve() } = {}) {
  return metadataServer(async (url) => {
    if (url.pathname === DATASETS_PATH) {
      await release;
      return jsonResponse(datasets);
    }
    if (url.pathname === datasetImagesApiPath(DATASET)) return jsonResponse(IMAGES);
    if (url.pathname === datasetImagesApiPath(OTHER_DATASET)) return jsonResponse([]);
    return undefined;
  });
}

describe('/pim/annotateddatasets', () => {
  it('shows a spinner, then the datasets by name with their uri', async () => {
    let release = () => undefined as void;
    const fetchMock = server({ release: new Promise<void>((resolve) => (release = resolve)) });
    renderApp('/annotateddatasets');
    expect(await screen.findByRole('heading', { name: 'Datasets with annotated images' })).toBeTruthy();
    await waitFor(() => expect(callsTo(fetchMock, DATASETS_PATH)).toHaveLength(1));
    expect(screen.getByLabelText('Loading')).toBeTruthy();

    release();
    const tree = await screen.findByRole('tree', { name: 'Datasets with annotated images' });
    expect(within(tree).getByText('Psalter B')).toBeTruthy();
    expect(within(tree).getByText(DATASET)).toBeTruthy();
    expect(within(tree).getByText('Charters')).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
    expect(callsTo(fetchMock, DATASETS_PATH)).toEqual([{ query: { onlyOwnData: 'false' }, auth: 'Google tok' }]);
  });

  it('loads the images of a dataset once, on its first open, and shows each by the end of its uri', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    renderApp('/annotateddatasets');
    const open = await screen.findByRole('button', { name: 'Open Psalter B' });
    expect(callsTo(fetchMock, datasetImagesApiPath(DATASET))).toHaveLength(0);

    await user.click(open);
    const image = await screen.findByText('…/3/psalter/f001r.jp2');
    expect(image.getAttribute('title')).toBe(IMAGE_1);
    await user.click(screen.getByRole('button', { name: 'Close Psalter B' }));
    expect(screen.queryByText('…/3/psalter/f001r.jp2')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open Psalter B' }));
    expect(await screen.findByText('…/3/psalter/f001r.jp2')).toBeTruthy();

    expect(callsTo(fetchMock, datasetImagesApiPath(DATASET))).toEqual([{ query: { onlyOwnData: 'false' }, auth: 'Google tok' }]);
  });

  it("shows an image of ours by its label, not by its address (which shows on hover)", async () => {
    const user = userEvent.setup();
    server();
    renderApp('/annotateddatasets');
    await user.click(await screen.findByRole('button', { name: 'Open Psalter B' }));
    const image = await screen.findByText('f. 1v');
    expect(image.getAttribute('title')).toBe(IMAGE_2);
    expect(screen.queryByText('…/3/psalter/f001v.jp2')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open image f. 1v' })).toBeTruthy();
  });

  it('opens an image to its field sets; a field set opens the annotator at that image', async () => {
    const user = userEvent.setup();
    server();
    const { router } = renderApp('/annotateddatasets');
    await user.click(await screen.findByRole('button', { name: 'Open Psalter B' }));
    await user.click(await screen.findByRole('button', { name: 'Open image …/3/psalter/f001r.jp2' }));
    expect(screen.getByRole('link', { name: 'Hands' }).getAttribute('href')).toBe(
      `/pim/analyzeimagemanual?uri=${encodeURIComponent(DATASET)}&fieldsetid=${OTHER_FIELD_SET}&imageUri=${encodeURIComponent(IMAGE_1)}`,
    );
    expect(screen.getByRole('link', { name: 'Metadata overview of Psalter B with Dating' }).getAttribute('href')).toBe(
      `/pim/metadataoverview?uri=${encodeURIComponent(DATASET)}&fieldsetid=${FIELD_SET}&imageUri=${encodeURIComponent(IMAGE_1)}`,
    );

    await user.click(screen.getByRole('link', { name: 'Dating' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/analyzeimagemanual'));
    const { searchParams, pathname } = new URL(router.state.location.pathname + router.state.location.search, 'http://localhost');
    expect(pathname).toBe('/pim/analyzeimagemanual');
    expect(Object.fromEntries(searchParams)).toEqual({ uri: DATASET, fieldsetid: FIELD_SET, imageUri: IMAGE_1 });
  });

  it('reaches the folders and field sets by keyboard', async () => {
    const user = userEvent.setup();
    server({ datasets: [DATASETS[0]!] });
    renderApp('/annotateddatasets');
    const open = await screen.findByRole('button', { name: 'Open Psalter B' });
    open.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('button', { name: 'Open image f. 1v' });
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open image …/3/psalter/f001r.jp2' }));
    await user.keyboard('{Enter}');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Dating' }));
  });

  it('says so when a dataset has no annotated images left', async () => {
    const user = userEvent.setup();
    server();
    renderApp('/annotateddatasets');
    await user.click(await screen.findByRole('button', { name: 'Open Charters' }));
    expect(await screen.findByText('No annotated images.')).toBeTruthy();
  });

  it("reloads with onlyOwnData=true when 'Own data only' is ticked, with every folder closed", async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    renderApp('/annotateddatasets');
    await user.click(await screen.findByRole('button', { name: 'Open Psalter B' }));
    await screen.findByText('…/3/psalter/f001r.jp2');

    await user.click(screen.getByRole('checkbox', { name: 'Own data only' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, DATASETS_PATH).map((call) => call.query)).toEqual([{ onlyOwnData: 'false' }, { onlyOwnData: 'true' }]),
    );
    expect(await screen.findByRole('button', { name: 'Open Psalter B' })).toBeTruthy();
    expect(screen.queryByText('…/3/psalter/f001r.jp2')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open Psalter B' }));
    await screen.findByText('…/3/psalter/f001r.jp2');
    expect(callsTo(fetchMock, datasetImagesApiPath(DATASET)).map((call) => call.query)).toEqual([
      { onlyOwnData: 'false' },
      { onlyOwnData: 'true' },
    ]);
  });

  it('explains how datasets appear when there are none', async () => {
    const user = userEvent.setup();
    server({ datasets: [] });
    renderApp('/annotateddatasets');
    expect(await screen.findByText('No annotated datasets yet')).toBeTruthy();
    expect(screen.getByText(/choose 'Analyze manually', pick a field set and save the values of an image/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the image sets' }).getAttribute('href')).toBe('/pim/imagesets');
    expect(screen.queryByText(/'Own data only' is on/)).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Own data only' }));
    expect(await screen.findByText(/'Own data only' is on/)).toBeTruthy();
  });
});
