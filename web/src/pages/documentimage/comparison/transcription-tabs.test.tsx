import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render';
import { IMAGE, imageServer, T1, T2, T3, transcription } from './fixtures.test-support';

vi.mock('openseadragon', () => ({ default: vi.fn(() => ({ destroy: vi.fn(), viewport: {} })) }));

// Two spaces, a combining macron (U+0304), a long s and a blank line: all must survive as they are.
const MEDIEVAL = 'Jtem  ſo hat der he\u0304rr\n\n\tvnd iar ';

const transcriptions = [
  transcription(T1, MEDIEVAL, {
    transcriber: 'Kraken 4',
    language: 'gml',
    version: '4.3',
    analyzed: '2024-03-05T12:00:00.000Z',
    params: { model: 'gothic' },
  }),
  transcription(T2, 'kitten', { transcriber: 'Transkribus' }),
  transcription(T3, 'sitting', { transcriber: 'Transkribus', format: 'alto' }),
];

function tabNames() {
  return screen.getAllByRole('tab').map((tab) => tab.textContent);
}

describe('the transcription tabs of /pim/documentimage', () => {
  it('has a tab per transcription named by transcriber, language and date, and the comparison', async () => {
    imageServer([...transcriptions, transcription('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa4', 'x')]);
    renderApp(`/documentimage?uuid=${IMAGE}`);
    expect(await screen.findByRole('tab', { name: 'Comparison' })).toBeTruthy();
    // Alike labels get their position; one with nothing to name it by gets its number.
    expect(tabNames()).toEqual([
      'Image',
      'Fields',
      'Kraken 4 · gml · Mar 5, 2024',
      'Transkribus (2)',
      'Transkribus (3)',
      'Transcription 4',
      'Comparison',
    ]);
  });

  it('shows the read-only fields and the clean text exactly as stored', async () => {
    const user = userEvent.setup();
    imageServer(transcriptions);
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);
    await user.click(await screen.findByRole('tab', { name: 'Kraken 4 · gml · Mar 5, 2024' }));

    const fields = screen.getByRole('table', { name: 'Fields of the transcription' });
    const rows = Array.from(fields.querySelectorAll('tr')).map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]);
    expect(rows.map(([name]) => name)).toEqual(['format', 'id', 'documentImageId', 'transcriber', 'version', 'analyzed', 'params', 'uuid', 'status']);
    expect(Object.fromEntries(rows)).toMatchObject({
      format: 'page',
      id: T1,
      documentImageId: IMAGE,
      transcriber: 'Kraken 4',
      version: '4.3',
      params: '{\n  "model": "gothic"\n}',
      uuid: T1,
      status: 'done',
    });
    expect(fields.querySelector('time')!.getAttribute('dateTime')).toBe('2024-03-05T12:00:00.000Z');

    expect(screen.getByLabelText('Clean text').textContent).toBe(MEDIEVAL);
    expect(screen.getByText('33 characters, 3 lines')).toBeTruthy();
    // The tab is in the address, so a reload opens it again.
    expect(router.state.location.search).toContain(`tab=transcription-${T1}`);
  });

  it('marks diff 1 and diff 2, shows the comparison of the two, and clears it', async () => {
    const user = userEvent.setup();
    imageServer(transcriptions);
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);

    await user.click(await screen.findByRole('tab', { name: 'Transkribus (2)' }));
    await user.click(screen.getByRole('button', { name: 'Diff 1' }));
    expect(screen.getByRole('button', { name: 'Diff 1' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/reference: Transkribus \(2\)/)).toBeTruthy();
    expect(screen.getByText(/hypothesis: not chosen/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show comparison' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Transkribus (3)' }));
    expect(screen.getByRole('button', { name: 'Diff 1' }).getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Diff 2' }));
    expect(screen.getByRole('button', { name: 'Diff 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/hypothesis: Transkribus \(3\)/)).toBeTruthy();
    expect(router.state.location.search).toContain(`diff1=${T2}&diff2=${T3}`);

    await user.click(screen.getByRole('button', { name: 'Show comparison' }));
    expect(screen.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    const measures = screen.getByRole('table', { name: 'Measures' });
    expect(within(measures).getByRole('row', { name: /Character error rate/ }).textContent).toContain('50.0%');

    await user.click(screen.getByRole('button', { name: 'Clear diffs' }));
    expect(screen.queryByRole('table', { name: 'Measures' })).toBeNull();
    expect(screen.getByText(/Mark one transcription as Diff 1/)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Transkribus (3)' }));
    expect(screen.getByRole('button', { name: 'Diff 2' }).getAttribute('aria-pressed')).toBe('false');
    expect(router.state.location.search).not.toContain('diff');
  });

  it('moves a transcription marked diff 1 to diff 2 rather than compare it with itself, and unmarks on a second click', async () => {
    const user = userEvent.setup();
    imageServer(transcriptions);
    renderApp(`/documentimage?uuid=${IMAGE}&tab=transcription-${T2}`);
    await user.click(await screen.findByRole('button', { name: 'Diff 1' }));
    await user.click(screen.getByRole('button', { name: 'Diff 2' }));
    expect(screen.getByRole('button', { name: 'Diff 1' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: 'Diff 2' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Diff 2' }));
    expect(screen.getByRole('button', { name: 'Diff 2' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Clear diffs' })).toBeNull();
  });

  it('shows no transcription tabs for an image without transcriptions', async () => {
    imageServer([]);
    renderApp(`/documentimage?uuid=${IMAGE}`);
    expect(await screen.findByRole('heading', { name: 'f. 1r' })).toBeTruthy();
    expect(tabNames()).toEqual(['Image', 'Fields']);
  });
});
