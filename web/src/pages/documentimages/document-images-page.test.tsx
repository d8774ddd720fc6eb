import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { documentImageFixture, imageSetFixture } from '../../test/factories';

const SET = '22222222-2222-4222-8222-222222222222';
const IMAGE = '55555555-5555-4555-8555-555555555555';
const LONG_TEXT = Array.from({ length: 12 }, (_, i) => `line ${i + 1} of the recognised text on this page`).join('\n');

function documentImage(uuid: string, label: string) {
  return documentImageFixture(uuid, label, { tesseractText: LONG_TEXT, languageBest: 'la' });
}

function server() {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === `/api/pim/documentimageset/${SET}/documentimages`) {
        return jsonResponse({ results: [documentImage(IMAGE, 'f. 1r')], total: 123, pageSize: 10 });
      }
      if (url.pathname === `/api/pim/documentimageset/${SET}`) return jsonResponse(imageSetFixture(SET, 'Psalter'));
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

const pageCalls = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchedUrls(fetchMock)
    .filter((url) => url.includes('/documentimages?'))
    .map((url) => Object.fromEntries(new URL(url, 'http://localhost').searchParams));

describe('/pim/documentimages', () => {
  it("says 'no documentimagesetuuid.' without the parameter", async () => {
    renderApp('/documentimages');
    expect(await screen.findByText('no documentimagesetuuid.')).toBeTruthy();
  });

  it('asks the server for one page and shows its total; uuid links to the image', async () => {
    const fetchMock = server();
    renderApp(`/documentimages?documentimagesetuuid=${SET}`);
    const table = await screen.findByRole('table', { name: 'Document images' });
    const link = await within(table).findByRole('link', { name: IMAGE });
    expect(link.getAttribute('href')).toBe(`/pim/documentimage?uuid=${IMAGE}`);
    expect(screen.getByText("1–10 of 123")).toBeTruthy();
    expect(pageCalls(fetchMock)).toEqual([{ page: '0', pageSize: '10' }]);
  });

  it('shows the useful columns first, gives long texts room and leads back to the set', async () => {
    server();
    renderApp(`/documentimages?documentimagesetuuid=${SET}`);
    const table = await screen.findByRole('table', { name: 'Document images' });
    await within(table).findByRole('link', { name: IMAGE });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'uuid', 'label', 'height', 'width', 'broken', 'pagenumber', 'linesCount', 'tesseractText', 'languageBest', 'publish', 'uploader',
    ]);
    const text = headers.find((header) => header.textContent === 'tesseractText') as HTMLElement;
    expect(text.style.minWidth).not.toBe('');
    const back = await screen.findByRole('link', { name: 'Back to Psalter' });
    expect(back.getAttribute('href')).toBe(`/pim/imageset?uuid=${SET}`);
  });

  it('sends paging, sorting and the width/height range filters to the server', async () => {
    const fetchMock = server();
    const state = {
      pageIndex: 2,
      pageSize: 20,
      sorting: [{ id: 'width', desc: true }],
      columnFilters: [
        { id: 'width', value: [100, null] },
        { id: 'height', value: [null, 4000] },
        { id: 'label', value: 'f. 1' },
      ],
    };
    renderApp(`/documentimages?documentimagesetuuid=${SET}&state=${encodeURIComponent(JSON.stringify(state))}`);
    await screen.findByRole('link', { name: IMAGE });
    expect(pageCalls(fetchMock)).toEqual([
      { page: '2', pageSize: '20', sort: 'width', desc: 'true', label: 'f. 1', minWidth: '100', maxHeight: '4000' },
    ]);
  });

  it('asks again, from the first page, when a column is sorted', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    renderApp(`/documentimages?documentimagesetuuid=${SET}&state=${encodeURIComponent('{"pageIndex":3}')}`);
    await screen.findByRole('link', { name: IMAGE });
    await user.click(screen.getByRole('button', { name: 'height' }));
    // TanStack sorts number columns largest first on the first click, as in client-side tables.
    await waitFor(() => expect(pageCalls(fetchMock).at(-1)).toEqual({ page: '0', pageSize: '10', sort: 'height', desc: 'true' }));
  });

  it("cuts long texts to three lines with 'read more' and 'show less'", async () => {
    const user = userEvent.setup();
    server();
    renderApp(`/documentimages?documentimagesetuuid=${SET}`);
    await user.click(await screen.findByRole('button', { name: 'read more' }));
    await user.click(screen.getByRole('button', { name: 'show less' }));
    expect(screen.getByRole('button', { name: 'read more' })).toBeTruthy();
  });
});
