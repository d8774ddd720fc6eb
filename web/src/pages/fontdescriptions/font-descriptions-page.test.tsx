import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchedUrls, renderApp } from '../../test/render';
import { bodiesSent, fontPath, fontServer, FRAKTUR, JUNICODE, LIST_PATH, sampleFonts } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest('tr') as HTMLElement;

/** The files the browser was asked to save. */
let saved: string[] = [];

beforeEach(() => {
  saved = [];
  // jsdom has no object URLs; this stands in for the browser's.
  URL.createObjectURL = vi.fn(() => 'blob:test/font');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.download) saved.push(this.download);
  });
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('/pim/fontdescriptions', () => {
  it('lists name, type, URI, handwritten, serif and uuid, with Download and Delete per row', async () => {
    fontServer(sampleFonts());
    renderApp('/fontdescriptions');
    expect(await screen.findByRole('heading', { name: 'Font descriptions' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Font descriptions' });
    await within(table).findByText('Junicode');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name', 'Type', 'URI', 'Handwritten', 'Serif', 'UUID', 'Actions',
    ]);
    expect(cellTexts(rowOf(table, 'UnifrakturMaguntia'))).toEqual([
      'UnifrakturMaguntia', 'OpenType', 'https://fonts.example.org/unifrakturmaguntia', 'Yes', 'No', FRAKTUR, 'DownloadDelete',
    ]);
  });

  it('opens the form on a row click and a new one with New font description', async () => {
    const user = userEvent.setup();
    fontServer(sampleFonts());
    const { router } = renderApp('/fontdescriptions');
    await user.click(await screen.findByText('Junicode'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/fontdescription?uuid=${JUNICODE}`));
    expect(await screen.findByRole('heading', { name: 'Font description' })).toBeTruthy();

    await user.click(screen.getAllByRole('link', { name: 'Back to the font descriptions' }).at(-1)!);
    await user.click(await screen.findByRole('link', { name: 'New font description' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/pim/fontdescription'));
    expect(await screen.findByRole('heading', { name: 'New font description' })).toBeTruthy();
  });

  it('downloads a font as {uuid}.ttf without opening its row', async () => {
    const user = userEvent.setup();
    const fetchMock = fontServer(sampleFonts());
    const { router } = renderApp('/fontdescriptions');
    const table = await screen.findByRole('table', { name: 'Font descriptions' });
    await user.click(await within(table).findByRole('button', { name: 'Download Junicode' }));
    await waitFor(() => expect(saved).toEqual([`${JUNICODE}.ttf`]));
    expect(fetchedUrls(fetchMock)).toContain(`${fontPath(JUNICODE)}/binary`);
    expect(router.state.location.pathname).toBe('/pim/fontdescriptions');
  });

  it('deletes a font description only after Yes', async () => {
    const user = userEvent.setup();
    const fetchMock = fontServer(sampleFonts());
    renderApp('/fontdescriptions');
    const table = await screen.findByRole('table', { name: 'Font descriptions' });
    await user.click(await within(table).findByRole('button', { name: 'Delete Junicode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete font description' });
    expect(within(dialog).getByText(/Delete the font description 'Junicode' and its font file\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesSent(fetchMock, 'DELETE', fontPath(JUNICODE))).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Delete Junicode' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete font description' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(table).queryByText('Junicode')).toBeNull());
    expect(bodiesSent(fetchMock, 'DELETE', fontPath(JUNICODE))).toHaveLength(1);
    expect(await screen.findByText("The font description 'Junicode' was deleted.")).toBeTruthy();
    expect(within(table).getByText('UnifrakturMaguntia')).toBeTruthy();
  });

  it('lets a user who is not an admin download but not add or delete', async () => {
    fontServer(sampleFonts(), { roles: ['AUTHENTICATED'] });
    renderApp('/fontdescriptions');
    const table = await screen.findByRole('table', { name: 'Font descriptions' });
    expect(await within(table).findByRole('button', { name: 'Download Junicode' })).toBeTruthy();
    expect(within(table).queryByRole('button', { name: 'Delete Junicode' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'New font description' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New font description' })).toHaveProperty('disabled', true);
    expect(fetchedUrls(vi.mocked(fetch))).toContain(LIST_PATH);
  });
});
