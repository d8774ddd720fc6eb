import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render';
import { IMAGE, imageServer, T1, T2, transcription } from './fixtures.test-support';

/** Opens the comparison of two texts, as the address after marking them says. */
function compare(reference: string, hypothesis: string) {
  imageServer([transcription(T1, reference, { transcriber: 'Kraken' }), transcription(T2, hypothesis, { transcriber: 'Tesseract' })]);
  return renderApp(`/documentimage?uuid=${IMAGE}&tab=comparison&diff1=${T1}&diff2=${T2}`);
}

/** Each measure's value, by the measure's name. */
function measures(name = 'Measures'): Record<string, string> {
  const table = screen.getByRole('table', { name });
  return Object.fromEntries(
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [within(row).getByRole('rowheader').textContent, within(row).getAllByRole('cell')[0]!.textContent]),
  );
}

/** The changed runs of one side of the diff, as [op, text]; gaps (where the other side has more) as [op, '']. */
function changes(side: string) {
  return Array.from(screen.getByLabelText(side).querySelectorAll('[data-op]')).map((el) => [el.getAttribute('data-op'), el.textContent]);
}

describe('the comparison of two transcriptions', () => {
  it('measures kitten against sitting: distance 3, CER 3/6', async () => {
    compare('kitten', 'sitting');
    expect(await screen.findByRole('table', { name: 'Measures' })).toBeTruthy();
    expect(screen.getByText('Diff 1 · reference')).toBeTruthy();
    expect(screen.getByText('Diff 2 · hypothesis')).toBeTruthy();
    expect(measures()).toEqual({
      'Length of the reference': '6',
      'Length of the hypothesis': '7',
      'Levenshtein edit distance': '3',
      'Normalised edit distance': '0.429',
      'Character error rate (CER)': '50.0%',
      'Word error rate (WER)': '100.0%',
    });
    expect(screen.getByText('3 / 6')).toBeTruthy();
  });

  it('shows the character diff side by side, each change with its kind and an accessible title', async () => {
    compare('kitten', 'sitting');
    const reference = await screen.findByLabelText('Diff 1 · reference: PAGE · Kraken');
    expect(reference.textContent).toBe('kitten');
    expect(screen.getByLabelText('Diff 2 · hypothesis: PAGE · Tesseract').textContent).toBe('sitting');
    expect(changes('Diff 1 · reference: PAGE · Kraken')).toEqual([
      ['substitute', 'k'],
      ['substitute', 'e'],
      ['insert', ''],
    ]);
    expect(changes('Diff 2 · hypothesis: PAGE · Tesseract')).toEqual([
      ['substitute', 's'],
      ['substitute', 'i'],
      ['insert', 'g'],
    ]);
    expect(reference.querySelector('del')!.getAttribute('title')).toBe('Substituted: “k” → “s”');
    expect(screen.getByLabelText('Diff 2 · hypothesis: PAGE · Tesseract').querySelector('ins:last-child')!.getAttribute('title')).toBe('Inserted: “g”');
    expect(screen.getByText('Characters: 1 inserted, 0 deleted, 2 substituted.')).toBeTruthy();
    for (const text of ['Inserted (only in the hypothesis)', 'Deleted (only in the reference)', 'Substituted']) {
      expect(within(screen.getByRole('group', { name: 'Legend' })).getByText(text)).toBeTruthy();
    }
  });

  it('shows a changed space, line break or leading combining mark visibly', async () => {
    compare('he\u0304r da', 'her\nda');
    await screen.findByRole('table', { name: 'Measures' });
    expect(changes('Diff 1 · reference: PAGE · Kraken')).toEqual([
      ['delete', '\u25cc\u0304'],
      ['substitute', '␣'],
    ]);
    expect(changes('Diff 2 · hypothesis: PAGE · Tesseract')).toEqual([
      ['delete', ''],
      ['substitute', '⏎\n'],
    ]);
  });

  it('diffs by words on request', async () => {
    const user = userEvent.setup();
    const { router } = compare('the cat sat', 'the bat sat down');
    await user.click(await screen.findByRole('radio', { name: 'Words' }));
    await waitFor(() => expect(screen.getByText('Words: 1 inserted, 0 deleted, 1 substituted.')).toBeTruthy());
    expect(changes('Diff 1 · reference: PAGE · Kraken')).toEqual([
      ['substitute', 'cat'],
      ['insert', ''],
    ]);
    expect(changes('Diff 2 · hypothesis: PAGE · Tesseract')).toEqual([
      ['substitute', 'bat'],
      ['insert', 'down'],
    ]);
    expect(screen.getByLabelText('Diff 2 · hypothesis: PAGE · Tesseract').textContent).toBe('the bat sat down');
    expect(measures()['Word error rate (WER)']).toBe('66.7%');
    expect(router.state.location.search).toContain('level=words');
  });

  it('keeps each side’s line breaks when it diffs by words, inside a changed run too', async () => {
    const user = userEvent.setup();
    compare('Jtem ſo\nhat der herr', 'Jtem so hat\nder herr');
    await user.click(await screen.findByRole('radio', { name: 'Words' }));
    await waitFor(() => expect(screen.getByText('Words: 0 inserted, 0 deleted, 1 substituted.')).toBeTruthy());
    expect(screen.getByLabelText('Diff 1 · reference: PAGE · Kraken').textContent).toBe('Jtem ſo\nhat der herr');
    expect(screen.getByLabelText('Diff 2 · hypothesis: PAGE · Tesseract').textContent).toBe('Jtem so hat\nder herr');
    expect(changes('Diff 1 · reference: PAGE · Kraken')).toEqual([['substitute', 'ſo']]);
  });

  it('measures under the chosen normalisation: Ab against ab is 1 exactly, 0 ignoring case', async () => {
    const user = userEvent.setup();
    const { router } = compare('Ab', 'ab');
    await screen.findByRole('table', { name: 'Measures' });
    expect(measures()['Levenshtein edit distance']).toBe('1');
    expect(measures()['Character error rate (CER)']).toBe('50.0%');
    await user.click(screen.getByRole('radio', { name: 'Ignore case' }));
    await waitFor(() => expect(measures()['Levenshtein edit distance']).toBe('0'));
    expect(measures()['Character error rate (CER)']).toBe('0.0%');
    expect(changes('Diff 1 · reference: PAGE · Kraken')).toEqual([]);
    expect(router.state.location.search).toContain('normalisation=ignoreCase');
  });

  it('compares every normalisation side by side when asked', async () => {
    const user = userEvent.setup();
    compare('Ab, ſe\u0304', 'ab ſe');
    await screen.findByRole('table', { name: 'Measures' });
    expect(screen.queryByRole('table', { name: 'Measures for each normalisation' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Compare all normalisations' }));
    const table = screen.getByRole('table', { name: 'Measures for each normalisation' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Measure',
      'Exact',
      'Unicode NFC',
      'Ignore case',
      'Ignore punctuation',
      'Collapse whitespace',
      'Strip combining marks',
    ]);
    const distances = within(table).getByRole('row', { name: /Levenshtein/ });
    // A (case), the comma (punctuation) and the macron (a combining mark): long s stays ſ throughout.
    expect(within(distances).getAllByRole('cell').map((td) => td.textContent)).toEqual(['3', '3', '2', '2', '3', '2']);
  });

  it('lists the most frequent character confusions with invisible characters shown', async () => {
    const user = userEvent.setup();
    compare('k ke\u0304 kit', 's\nse sitg');
    await screen.findByRole('table', { name: 'Measures' });
    await user.click(screen.getByRole('button', { name: 'Most frequent character confusions' }));
    const table = screen.getByRole('table', { name: 'Most frequent character confusions' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((td) => td.textContent));
    expect(rows).toEqual([
      ['k', 's', '3', 'U+006B → U+0073'],
      ['nothing', 'g', '1', '– → U+0067'],
      ['␣', '⏎', '1', 'U+0020 → U+000A'],
      ['◌\u0304', 'nothing', '1', 'U+0304 → –'],
    ]);
  });
});

describe('the comparison with ground truth', () => {
  const groundTruth = [
    {
      transcriptionId: T1,
      linesTotal: 3,
      lines: [
        { lineIndex: 2, text: 'vnd iar', groundTruth: 'vnd iar' },
        { lineIndex: 0, text: 'Jtem so', groundTruth: 'Jtem ſo' },
      ],
    },
    { transcriptionId: T2, linesTotal: 2, lines: [] },
  ];

  it('compares the corrected lines of a transcription with what was recognised on them', async () => {
    const user = userEvent.setup();
    imageServer([transcription(T1, 'Jtem so\nhat der\nvnd iar', { transcriber: 'Kraken' }), transcription(T2, 'x', { transcriber: 'Tesseract' })], groundTruth);
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}&tab=transcription-${T1}`);
    expect(await screen.findByText('Ground truth: 2 of 3 lines corrected.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Compare with ground truth' }));

    expect(screen.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('The corrected lines of PAGE · Kraken (2 of 3 lines)')).toBeTruthy();
    expect(screen.getByLabelText('Reference · ground truth').textContent).toBe('Jtem ſo\nvnd iar');
    expect(screen.getByLabelText('Hypothesis · recognised text').textContent).toBe('Jtem so\nvnd iar');
    expect(changes('Reference · ground truth')).toEqual([['substitute', 'ſ']]);
    expect(measures()).toMatchObject({
      'Length of the reference': '15',
      'Levenshtein edit distance': '1',
      'Character error rate (CER)': '6.7%',
      'Word error rate (WER)': '25.0%',
    });
    expect(router.state.location.search).toContain(`groundtruth=${T1}`);

    await user.click(screen.getByRole('button', { name: 'Clear diffs' }));
    expect(screen.queryByRole('table', { name: 'Measures' })).toBeNull();
  });

  it('offers no comparison for a transcription none of whose lines are corrected, but the way to correct them', async () => {
    imageServer([transcription(T1, 'a'), transcription(T2, 'x', { transcriber: 'Tesseract' })], groundTruth);
    renderApp(`/documentimage?uuid=${IMAGE}&tab=transcription-${T2}`);
    expect(await screen.findByText('None of its 2 lines has been corrected yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Compare with ground truth' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Correct its lines' }).getAttribute('href')).toBe(`/pim/pimsimpletextline?parentuuid=${IMAGE}`);
  });
});
