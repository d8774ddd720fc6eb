import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderApp } from '../../test/render';
import { callsTo, hierarchies, imageSet, imageSetServer, OTHER_SET, PAGE_1, PAGE_2, QUIRE, ROOT } from './fixtures.test-support';

const hierarchyPath = (uuid: string) => `/api/pim/documentimageset/${uuid}/hierarchy`;

describe('the hierarchy tree of /pim/imageset', () => {
  it('shows the root open and loads a folder once, on its first open', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer();
    renderApp(`/imageset?uuid=${ROOT}`);
    expect(await screen.findByRole('heading', { name: 'Psalter' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'page 1' })).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', hierarchyPath(QUIRE))).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Open Quire 1' }));
    expect(await screen.findByRole('link', { name: 'page 2' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close Quire 1' }));
    expect(screen.queryByRole('link', { name: 'page 2' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open Quire 1' }));
    expect(await screen.findByRole('link', { name: 'page 2' })).toBeTruthy();

    expect(callsTo(fetchMock, 'GET', hierarchyPath(QUIRE))).toHaveLength(1);
    expect(callsTo(fetchMock, 'GET', hierarchyPath(ROOT))).toHaveLength(1);
  });

  it('links an image to its page, with the folder it was opened from', async () => {
    imageSetServer();
    renderApp(`/imageset?uuid=${ROOT}`);
    const link = await screen.findByRole('link', { name: 'page 1' });
    expect(link.getAttribute('href')).toBe(`/pim/documentimage?uuid=${PAGE_1}&documentImageSetUuid=${ROOT}`);
  });

  it('removes an image and a sub-set from their folder with DELETE {uuid}', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) => {
      if (init?.method !== 'DELETE') return undefined;
      return jsonResponse({ ...(hierarchies[ROOT] as object), subsets: [], images: [] });
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Remove page 1' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'page 1' })).toBeNull());
    const [removeImage] = callsTo(fetchMock, 'DELETE', `/api/pim/documentimageset/${ROOT}/documentimages`);
    expect(JSON.parse(String(removeImage?.[1]?.body))).toEqual({ uuid: PAGE_1 });
    // The answer is the folder's new hierarchy: Quire 1 went too, without asking again.
    expect(screen.queryByRole('button', { name: 'Open Quire 1' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', hierarchyPath(ROOT))).toHaveLength(1);
  });

  it('removes a sub-set from its parent, not from itself', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) =>
      init?.method === 'DELETE' ? jsonResponse({ ...(hierarchies[ROOT] as object), subsets: [] }) : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Remove Quire 1' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open Quire 1' })).toBeNull());
    const [call] = callsTo(fetchMock, 'DELETE', `/api/pim/documentimageset/${ROOT}/subsets`);
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ uuid: QUIRE });
  });

  it("adds a set with 'Add imageset': the picker leaves out the folder, Add waits for a choice", async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) =>
      init?.method === 'PUT'
        ? jsonResponse({ ...(hierarchies[ROOT] as object), subsets: [{ id: QUIRE, name: 'Quire 1' }, { id: OTHER_SET, name: 'Book of hours' }] })
        : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Actions for Psalter' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Add imageset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add imageset' });
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toHaveProperty('disabled', true);

    await user.click(within(dialog).getByLabelText('Imageset'));
    await user.click(await screen.findByRole('option', { name: 'Book of hours' }));
    expect(add).toHaveProperty('disabled', false);
    const [search] = callsTo(fetchMock, 'GET', '/api/pim/documentimageset/autocomplete');
    expect(new URL(String(search?.[0]), 'http://localhost').searchParams.get('exclude')).toBe(ROOT);

    await user.click(add);
    expect(await screen.findByRole('button', { name: 'Open Book of hours' })).toBeTruthy();
    const [put] = callsTo(fetchMock, 'PUT', `/api/pim/documentimageset/${ROOT}/subsets`);
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ uuid: OTHER_SET });
  });

  it('adds an image from another set: Add stays disabled until an image of that set is chosen', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) =>
      init?.method === 'PUT'
        ? jsonResponse({ ...(hierarchies[ROOT] as object), images: [{ id: PAGE_1, name: 'page 1' }, { id: PAGE_2, name: 'page 2' }] })
        : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Actions for Psalter' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Add image from another set' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add image from another set' });
    const add = within(dialog).getByRole('button', { name: 'Add' });

    await user.click(within(dialog).getByLabelText('Imageset'));
    await user.click(await screen.findByRole('option', { name: 'Book of hours' }));
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByLabelText('Image'));
    await user.click(await screen.findByRole('option', { name: 'page 2' }));
    expect(add).toHaveProperty('disabled', false);
    const [search] = callsTo(fetchMock, 'GET', '/api/pim/documentimage/autocomplete');
    expect(new URL(String(search?.[0]), 'http://localhost').searchParams.get('setUuid')).toBe(OTHER_SET);

    await user.click(add);
    expect(await screen.findByRole('link', { name: 'page 2' })).toBeTruthy();
    const [put] = callsTo(fetchMock, 'PUT', `/api/pim/documentimageset/${ROOT}/documentimages`);
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ uuid: PAGE_2 });
  });

  it('sorts a folder with POST .../sort: "Sorting…" while it runs, then how many items were put in order', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = imageSetServer((url, init) =>
      init?.method === 'POST' && url.pathname.endsWith('/sort') ? new Promise<Response>((resolve) => (answer = resolve)) : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Actions for Psalter' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort' }));
    expect(await screen.findByText('Sorting Psalter by name…')).toBeTruthy();

    answer(jsonResponse({ ...(hierarchies[ROOT] as object), images: [{ id: PAGE_1, name: 'page 1' }, { id: PAGE_2, name: 'page 10' }] }));
    expect(await screen.findByRole('link', { name: 'page 10' })).toBeTruthy();
    expect(await screen.findByText('Psalter is sorted by name: 3 sub-sets and images in order.')).toBeTruthy();
    expect(screen.queryByText('Sorting Psalter by name…')).toBeNull();
    expect(callsTo(fetchMock, 'POST', `/api/pim/documentimageset/${ROOT}/sort`)).toHaveLength(1);
  });

  it('offers a reader of the set its folder actions and Remove disabled, saying WRITE is missing', async () => {
    const user = userEvent.setup();
    imageSetServer((url) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse({ ...imageSet(ROOT, 'Psalter'), permissions: ['READ'] });
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    expect(await screen.findByRole('button', { name: 'Remove page 1' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Remove Quire 1' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Actions for Psalter' }));
    expect(await screen.findByText('Changing this folder needs WRITE permission on its imageset.')).toBeTruthy();
    for (const name of ['Sort', 'Add imageset', 'Upload image', 'Add image from another set']) {
      expect(screen.getByRole('menuitem', { name })).toHaveProperty('disabled', true);
    }
  });

  it("asks a sub-set's permissions once its folder opens: a writer of the sub-set may remove its images", async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse({ ...imageSet(ROOT, 'Psalter'), permissions: ['READ'] });
      if (url.pathname === `/api/pim/documentimageset/${QUIRE}`) return jsonResponse({ ...imageSet(QUIRE, 'Quire 1'), permissions: ['READ', 'WRITE'] });
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await screen.findByRole('button', { name: 'Open Quire 1' });
    expect(callsTo(fetchMock, 'GET', `/api/pim/documentimageset/${QUIRE}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Open Quire 1' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove page 2' })).toHaveProperty('disabled', false));
    expect(screen.getByRole('button', { name: 'Remove page 1' })).toHaveProperty('disabled', true);
    expect(callsTo(fetchMock, 'GET', `/api/pim/documentimageset/${QUIRE}`)).toHaveLength(1);
  });
});
