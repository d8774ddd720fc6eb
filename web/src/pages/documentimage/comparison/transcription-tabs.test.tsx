import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render';
import { IMAGE, imageServer, T1, T2, T3, transcription } from './fixtures.test-support';
import { formatDateTime } from './labels';

vi.mock('openseadragon', () => ({ default: vi.fn(() => ({ destroy: vi.fn(), viewport: {}, addHandler: vi.fn() })) }));

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
  it('has a tab per transcription named by format, source, language and date, and the comparison', async () => {
    imageServer([...transcriptions, transcription('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa4', 'x', { format: '' })]);
    renderApp(`/documentimage?uuid=${IMAGE}`);
    expect(await screen.findByRole('tab', { name: 'Comparison' })).toBeTruthy();
    // One with nothing to name it by gets its number.
    expect(tabNames()).toEqual(['Image', 'Fields', 'PAGE · Kraken 4 · gml · Mar 5, 2024', 'PAGE · Transkribus', 'ALTO · Transkribus', 'Transcription 4', 'Comparison']);
  });

  it('names an uploaded file by its name, and says more of tabs that would be alike until they differ', async () => {
    const day = '2024-03-05T12:00:00.000Z';
    const later = '2024-03-05T12:45:00.000Z';
    const uuid = (n: number) => `bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb${n}`;
    imageServer([
      // kant1784: the same page as ALTO (no software named) and as PAGE (by OCR-D, in German).
      transcription(uuid(1), 'a', { format: 'alto', sourceFileName: 'PAGE_0017_ALTO.xml', analyzed: day }),
      transcription(uuid(2), 'b', { format: 'page', sourceFileName: 'PAGE_0017_PAGE.xml', transcriber: 'OCR-D', language: 'de', analyzed: day }),
      // The same file name: the transcriber tells them apart.
      transcription(uuid(3), 'c', { sourceFileName: 'f1.xml', transcriber: 'Loghi', analyzed: day }),
      transcription(uuid(4), 'd', { sourceFileName: 'f1.xml', transcriber: 'Kraken', analyzed: day }),
      // The same file uploaded twice that day: the time does.
      transcription(uuid(5), 'e', { format: 'hocr', sourceFileName: 'f1.hocr', analyzed: day }),
      transcription(uuid(6), 'f', { format: 'hocr', sourceFileName: 'f1.hocr', analyzed: later }),
      // Nothing does: their position.
      transcription(uuid(7), 'g', { format: 'page', transcriber: 'Loghi' }),
      transcription(uuid(8), 'h', { format: 'page', transcriber: 'Loghi' }),
    ]);
    renderApp(`/documentimage?uuid=${IMAGE}`);
    expect(await screen.findByRole('tab', { name: 'Comparison' })).toBeTruthy();
    expect(tabNames().slice(2, -1)).toEqual([
      'ALTO · PAGE_0017_ALTO.xml · Mar 5, 2024',
      'PAGE · PAGE_0017_PAGE.xml · German · Mar 5, 2024',
      'PAGE · f1.xml · Loghi · Mar 5, 2024',
      'PAGE · f1.xml · Kraken · Mar 5, 2024',
      `hOCR · f1.hocr · ${formatDateTime(day, 'en')}`,
      `hOCR · f1.hocr · ${formatDateTime(later, 'en')}`,
      'PAGE · Loghi (7)',
      'PAGE · Loghi (8)',
    ]);
  });

  it('shows the read-only fields and the clean text exactly as stored', async () => {
    const user = userEvent.setup();
    imageServer(transcriptions);
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);
    await user.click(await screen.findByRole('tab', { name: 'PAGE · Kraken 4 · gml · Mar 5, 2024' }));

    const fields = screen.getByRole('table', { name: 'Fields of the transcription' });
    const rows = Array.from(fields.querySelectorAll('tr')).map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]);
    expect(rows.map(([name]) => name)).toEqual(['format', 'sourceFileName', 'id', 'documentImageId', 'transcriber', 'language', 'version', 'analyzed', 'params', 'uuid', 'status']);
    expect(Object.fromEntries(rows)).toMatchObject({
      format: 'page',
      sourceFileName: '',
      id: T1,
      documentImageId: IMAGE,
      transcriber: 'Kraken 4',
      language: 'gml',
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

  it('shows the language in the tab and in the fields: a code by its name, a name as it is', async () => {
    const user = userEvent.setup();
    imageServer([
      transcription(T1, 'In nomine domini', { transcriber: 'eScriptorium', language: 'la' }),
      // PAGE's primaryLanguage is a name.
      transcription(T2, 'Was ist Aufklärung', { transcriber: 'OCR-D', language: 'German' }),
    ]);
    renderApp(`/documentimage?uuid=${IMAGE}`);
    const languageRow = () => within(screen.getByRole('table', { name: 'Fields of the transcription' })).getByRole('row', { name: /^language/ });
    await user.click(await screen.findByRole('tab', { name: 'PAGE · eScriptorium · Latin' }));
    expect(languageRow().textContent).toBe('languageLatin (la)');
    await user.click(screen.getByRole('tab', { name: 'PAGE · OCR-D · German' }));
    expect(languageRow().textContent).toBe('languageGerman');
  });

  it('marks diff 1 and diff 2, shows the comparison of the two, and clears it', async () => {
    const user = userEvent.setup();
    imageServer(transcriptions);
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);

    await user.click(await screen.findByRole('tab', { name: 'PAGE · Transkribus' }));
    await user.click(screen.getByRole('button', { name: 'Diff 1' }));
    expect(screen.getByRole('button', { name: 'Diff 1' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/reference: PAGE · Transkribus/)).toBeTruthy();
    expect(screen.getByText(/hypothesis: not chosen/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show comparison' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'ALTO · Transkribus' }));
    expect(screen.getByRole('button', { name: 'Diff 1' }).getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Diff 2' }));
    expect(screen.getByRole('button', { name: 'Diff 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/hypothesis: ALTO · Transkribus/)).toBeTruthy();
    expect(router.state.location.search).toContain(`diff1=${T2}&diff2=${T3}`);

    await user.click(screen.getByRole('button', { name: 'Show comparison' }));
    expect(screen.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    const measures = screen.getByRole('table', { name: 'Measures' });
    expect(within(measures).getByRole('row', { name: /Character error rate/ }).textContent).toContain('50.0%');

    await user.click(screen.getByRole('button', { name: 'Clear diffs' }));
    expect(screen.queryByRole('table', { name: 'Measures' })).toBeNull();
    expect(screen.getByText(/Mark one transcription as Diff 1/)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'ALTO · Transkribus' }));
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
