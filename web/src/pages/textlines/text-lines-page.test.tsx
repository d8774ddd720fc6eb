import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import { differentLine, IMAGE, LINE_1, LINE_2, SET, textLineServer } from './fixtures.test-support';

const rows = [
  differentLine(LINE_1, 'Jtem  so hat', 'Jtem ſo hat', 2 / 11, 0),
  differentLine(LINE_2, 'der herr', 'der herre ', 0.2, 4),
];

function server(total = 2) {
  return textLineServer((url) =>
    url.pathname === '/api/pim/pimsimpletextline/different'
      ? jsonResponse({ results: rows, total, page: Number(url.searchParams.get('page')), pageSize: Number(url.searchParams.get('pageSize')) })
      : undefined,
  );
}

const differentCalls = (fetchMock: ReturnType<typeof server>) =>
  fetchedUrls(fetchMock)
    .filter((url) => url.startsWith('/api/pim/pimsimpletextline/different'))
    .map((url) => Object.fromEntries(new URL(url, 'http://localhost').searchParams));

describe('/pim/pimsimpletextlines', () => {
  it('lists the lines that differ: both texts exactly, the CER, the image and a link to correct each', async () => {
    const fetchMock = server();
    renderApp('/pimsimpletextlines');
    const table = await screen.findByRole('table', { name: 'Text lines that differ from ground truth' });
    await within(table).findByRole('link', { name: 'Correct page f. 1r, line 1' });
    const [header, first, second] = within(table).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Recognised text',
      'Ground truth',
      'CER',
      'Image',
      'Line',
      'Actions',
    ]);
    const cells = within(first!).getAllByRole('cell');
    // Whitespace is part of the text: two spaces stay two, a trailing space stays.
    expect(cells.map((cell) => cell.textContent)).toEqual(['Jtem  so hat', 'Jtem ſo hat', '18.2%', 'f. 1r', '1', 'Correct']);
    expect(within(second!).getAllByRole('cell')[1]?.textContent).toBe('der herre ');
    // Both texts in the manuscript font.
    for (const cell of cells.slice(0, 2)) expect(getComputedStyle(cell.firstElementChild!).fontFamily).toBe(MANUSCRIPT_FONT_FAMILY);
    expect(within(second!).getByText('20.0%')).toBeTruthy();
    expect(within(first!).getByRole('link', { name: 'f. 1r' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${IMAGE}`);
    expect(within(second!).getByRole('link', { name: 'Correct page f. 1r, line 5' }).getAttribute('href')).toBe(
      `/pim/pimsimpletextline?uuid=${LINE_2}`,
    );
    expect(screen.getByRole('link', { name: 'Correct lines' }).getAttribute('href')).toBe('/pim/pimsimpletextline');
    expect(differentCalls(fetchMock)).toEqual([{ page: '0', pageSize: '10' }]);
  });

  it('asks for the lines of ?parentuuid only, and offers to correct those', async () => {
    const fetchMock = server();
    renderApp(`/pimsimpletextlines?parentuuid=${SET}`);
    await screen.findByRole('link', { name: 'Correct page f. 1r, line 1' });
    expect(differentCalls(fetchMock)).toEqual([{ page: '0', pageSize: '10', parentuuid: SET }]);
    expect(screen.getByRole('link', { name: 'Correct lines' }).getAttribute('href')).toBe(`/pim/pimsimpletextline?parentuuid=${SET}`);
  });

  it('pages on the server: the next page and another page size are new requests', async () => {
    const user = userEvent.setup();
    const fetchMock = server(45);
    renderApp(`/pimsimpletextlines?parentuuid=${SET}`);
    await screen.findByRole('link', { name: 'Correct page f. 1r, line 1' });
    expect(screen.getByText('1–10 of 45')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(differentCalls(fetchMock).at(-1)).toEqual({ page: '1', pageSize: '10', parentuuid: SET }));
    await user.selectOptions(screen.getByLabelText('Rows per page'), '500');
    await waitFor(() => expect(differentCalls(fetchMock).at(-1)).toEqual({ page: '0', pageSize: '500', parentuuid: SET }));
  });
});
