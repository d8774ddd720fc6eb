import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import {
  IMAGE,
  LINE_1,
  LINE_2,
  noContent,
  postedBodies,
  SET,
  textLine,
  textLineServer,
} from './fixtures.test-support';

const RANDOM_OF_SET = `/api/pim/pimsimpletextline/random/parent/${SET}`;
const first = textLine(LINE_1, 'Jtem ſo hat der', { lineIndex: 2, confidence: 0.875, lowestConf: 0.42 });
const second = textLine(LINE_2, 'zweyte zeile', { lineIndex: 3 });

/** Answers the random calls with the given lines in turn, then 204; update and skip echo the line. */
function randomLines(path: string, ...lines: ReturnType<typeof textLine>[]) {
  const queue = [...lines];
  return textLineServer((url, init) => {
    if (url.pathname === path) {
      const next = queue.shift();
      return next ? jsonResponse(next) : noContent();
    }
    if (init?.method === 'POST' && url.pathname === '/api/pim/pimsimpletextline/update') {
      const { uuid, groundtruth } = JSON.parse(String(init.body)) as { uuid: string; groundtruth: string };
      return jsonResponse(textLine(uuid, 'whatever', { groundTruth: groundtruth }));
    }
    if (init?.method === 'POST' && url.pathname === '/api/pim/pimsimpletextline/skip') return noContent();
    return undefined;
  });
}

const textField = () => screen.findByRole('textbox', { name: 'Ground truth' });

let createdUrls: string[];
let revokedUrls: string[];

beforeEach(() => {
  createdUrls = [];
  revokedUrls = [];
  // jsdom has no object URLs; the screen needs one per line image.
  URL.createObjectURL = vi.fn(() => {
    const url = `blob:line-${createdUrls.length + 1}`;
    createdUrls.push(url);
    return url;
  });
  URL.revokeObjectURL = vi.fn((url: string) => {
    revokedUrls.push(url);
  });
});

describe('/pim/pimsimpletextline', () => {
  it('shows a random line of the parent: its image, where it comes from, the text focused in the field', async () => {
    const fetchMock = randomLines(RANDOM_OF_SET, first);
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    const field = await textField();
    expect(field).toHaveProperty('value', 'Jtem ſo hat der');
    await waitFor(() => expect(document.activeElement).toBe(field));

    const image = await screen.findByRole('img', { name: 'Page f. 1r, line 3' });
    expect(image.getAttribute('src')).toBe('blob:line-1');
    const imageCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith(`/pimsimpletextline/${LINE_1}/image`));
    expect(new Headers(imageCall?.[1]?.headers).get('Authorization')).toBe('Google tok');

    // The page first, so a page labelled '1' never reads as 'Line 9 of 1'.
    expect(screen.getByTestId('line-position').textContent).toBe('Page f. 1r, line 3');
    expect(screen.getByRole('link', { name: 'f. 1r' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${IMAGE}`);
    expect(screen.getByText('Confidence 87.5%')).toBeTruthy();
    expect(screen.getByText('Lowest 42.0%')).toBeTruthy();
    expect(screen.getByTestId('shortcut-hint').textContent).toBe('Enter saves · Ctrl + Enter skips');
    expect(fetchedUrls(fetchMock)).toContain(RANDOM_OF_SET);
  });

  it('sets the field and the recognised text in the manuscript font, so abbreviation marks show', async () => {
    randomLines('/api/pim/pimsimpletextline/random', textLine(LINE_1, 'ꝑ aͤ', { groundTruth: 'ꝑ a\u0364 \uF1AC' }));
    renderApp('/pimsimpletextline');
    expect(getComputedStyle(await textField()).fontFamily).toBe(MANUSCRIPT_FONT_FAMILY);
    expect(getComputedStyle(screen.getByTestId('recognised-text')).fontFamily).toBe(MANUSCRIPT_FONT_FAMILY);
  });

  it('prefills the ground truth when the line has one, and shows the recognised text beside it', async () => {
    randomLines('/api/pim/pimsimpletextline/random', textLine(LINE_1, 'Jtem so', { groundTruth: 'Jtem ſo ' }));
    renderApp('/pimsimpletextline');
    expect(await textField()).toHaveProperty('value', 'Jtem ſo ');
    expect(screen.getByTestId('recognised-text').textContent).toBe('Jtem so');
  });

  it('saves with Enter exactly what was typed, then shows the next line of the same parent', async () => {
    const user = userEvent.setup();
    const fetchMock = randomLines(RANDOM_OF_SET, first, second);
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    const field = await textField();
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Shift+Enter neither saves nor makes the line two lines.
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(field).toHaveProperty('value', 'Jtem ſo hat der');
    // Combining marks, a long s and a trailing space stay as typed: nothing is normalised or trimmed.
    await user.type(field, ' ꝛc\u0305 ');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'The last line was saved.');
    const next = await screen.findByDisplayValue('zweyte zeile');
    await waitFor(() => expect(document.activeElement).toBe(next));
    expect(postedBodies(fetchMock, '/api/pim/pimsimpletextline/update')).toEqual([
      { uuid: LINE_1, groundtruth: 'Jtem ſo hat der ꝛc\u0305 ' },
    ]);
    expect(fetchedUrls(fetchMock).filter((url) => url === RANDOM_OF_SET)).toHaveLength(2);
    // The first line's image URL is given back once its line is gone.
    await waitFor(() => expect(revokedUrls).toContain('blob:line-1'));
  });

  it('drops only a single trailing newline that a paste brought in', async () => {
    const user = userEvent.setup();
    const fetchMock = randomLines(RANDOM_OF_SET, textLine(LINE_1, ''), second);
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    const field = await textField();
    await user.click(field);
    await user.paste('  daz  \n');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByDisplayValue('zweyte zeile');
    expect(postedBodies(fetchMock, '/api/pim/pimsimpletextline/update')).toEqual([{ uuid: LINE_1, groundtruth: '  daz  ' }]);
  });

  it('skips with Ctrl+Enter and shows the next line', async () => {
    const user = userEvent.setup();
    const fetchMock = randomLines(RANDOM_OF_SET, first, second);
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    const field = await textField();
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByDisplayValue('zweyte zeile')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('The last line was skipped.');
    expect(postedBodies(fetchMock, '/api/pim/pimsimpletextline/skip')).toEqual([{ uuid: LINE_1, groundtruth: 'Jtem ſo hat der' }]);
    expect(postedBodies(fetchMock, '/api/pim/pimsimpletextline/update')).toEqual([]);
  });

  it('opens the line of ?uuid, and after it goes on with a random line', async () => {
    const user = userEvent.setup();
    const fetchMock = randomLines('/api/pim/pimsimpletextline/random', second);
    const byUuid = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      return url.pathname === `/api/pim/pimsimpletextline/${LINE_1}` ? jsonResponse(first) : byUuid(input, init);
    });
    const { router } = renderApp(`/pimsimpletextline?uuid=${LINE_1}`);
    const field = await textField();
    expect(field).toHaveProperty('value', 'Jtem ſo hat der');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByDisplayValue('zweyte zeile')).toBeTruthy();
    const lineGets = fetchMock.mock.calls.filter(([, init]) => init?.method === 'GET').map(([input]) => String(input));
    expect(lineGets.filter((url) => /pimsimpletextline\/[^/]+$/.test(url)).map((url) => new URL(url, 'http://localhost').pathname)).toEqual([
      `/api/pim/pimsimpletextline/${LINE_1}`,
      '/api/pim/pimsimpletextline/random',
    ]);
    // A reload shows a random line too, not the one just corrected.
    expect(router.state.location.search).toBe('');
  });

  it('says so when no lines remain, with a link to the lines that differ', async () => {
    randomLines(RANDOM_OF_SET);
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    expect(await screen.findByText('There are no more lines to correct.')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'See the lines whose ground truth differs from their text' });
    expect(link.getAttribute('href')).toBe(`/pim/pimsimpletextlines?parentuuid=${SET}`);
  });

  it('logs a failed fetch (no toast) and shows a short error state that can try again', async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    textLineServer((url) => {
      if (url.pathname !== '/api/pim/pimsimpletextline/random') return undefined;
      return fail ? jsonResponse({ error: 'internal', message: 'Internal Server Error' }, 500) : jsonResponse(second);
    });
    renderApp('/pimsimpletextline');
    expect(await screen.findByText('The text line could not be loaded: Internal Server Error')).toBeTruthy();
    expect(logged).toHaveBeenCalled();
    expect(document.querySelector('.mantine-Notification-root')).toBeNull();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByDisplayValue('zweyte zeile')).toBeTruthy();
  });

  it('stays on the line when saving fails, with the server message in a toast', async () => {
    const user = userEvent.setup();
    textLineServer((url, init) => {
      if (url.pathname === RANDOM_OF_SET) return jsonResponse(first);
      if (init?.method === 'POST') return jsonResponse({ error: 'forbidden', message: 'You may not change this image set.' }, 403);
      return undefined;
    });
    renderApp(`/pimsimpletextline?parentuuid=${SET}`);
    const field = await textField();
    await user.type(field, 'x{Enter}');
    expect(await screen.findByText(/You may not change this image set\./)).toBeTruthy();
    expect(document.querySelector('.mantine-Notification-root')).not.toBeNull();
    expect(field).toHaveProperty('value', 'Jtem ſo hat derx');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says so when a line has no region to show', async () => {
    randomLines('/api/pim/pimsimpletextline/random', textLine(LINE_1, 'abc', { region: null }));
    renderApp('/pimsimpletextline');
    expect(await screen.findByText('This line has no region on the page image.')).toBeTruthy();
  });
});
