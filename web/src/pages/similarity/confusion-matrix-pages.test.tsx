import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { CHARTERS, confusionMatrixFixture, similarityServer } from './fixtures.test-support';

const MATRIX = confusionMatrixFixture();
const summary = ({ uuid, created, model, modelLabel, imageSet, accuracy, snippets }: typeof MATRIX) => ({ uuid, created, model, modelLabel, imageSet, accuracy, snippets });
const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('/pim/siameseconfusionmatrices', () => {
  it('lists the matrices with uuid, created, model, image set, accuracy and snippets; the uuid opens one', async () => {
    const user = userEvent.setup();
    const server = similarityServer({
      answers: { siameseconfusionmatrix: [summary(MATRIX)], [`siameseconfusionmatrix/${MATRIX.uuid}`]: MATRIX },
    });
    const { router } = renderApp('/siameseconfusionmatrices');
    expect(await screen.findByRole('heading', { name: 'Siamese Confusion Matrices' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Siamese Confusion Matrices' });
    const link = await within(table).findByRole('link', { name: MATRIX.uuid });
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Uuid', 'Created', 'Model', 'Image set', 'Accuracy', 'Snippets']);
    expect(cellTexts(link.closest('tr')!)).toEqual([MATRIX.uuid, '2024-06-01 09:00', 'Writers of Utrecht', CHARTERS.name, '70.0%', '10']);

    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/siameseconfusionmatrix?uuid=${MATRIX.uuid}`));
    expect(await screen.findByRole('heading', { name: 'Siamese confusion matrix' })).toBeTruthy();
    expect(server.to(`siameseconfusionmatrix/${MATRIX.uuid}`)).toHaveLength(1);
  });
});

describe('/pim/siameseconfusionmatrix', () => {
  it('goes to the list, replacing the address, without a uuid', async () => {
    similarityServer({ answers: { siameseconfusionmatrix: [] } });
    const { router } = renderApp('/siameseconfusionmatrix');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/siameseconfusionmatrices'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { name: 'Siamese Confusion Matrices' })).toBeTruthy();
  });

  it('draws the matrix, true labels down and predicted across with the diagonal marked, and shows accuracy and report', async () => {
    similarityServer({ answers: { [`siameseconfusionmatrix/${MATRIX.uuid}`]: MATRIX } });
    renderApp(`/siameseconfusionmatrix?uuid=${MATRIX.uuid}`);
    const table = await screen.findByRole('table', { name: 'Confusion matrix' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['True label \\ predicted', 'Anna', 'Bert']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['Anna', 'Bert']);
    expect(rows.map(cellTexts)).toEqual([
      ['4', '2'],
      ['1', '3'],
    ]);
    const diagonal = rows.map((row, i) => within(row).getAllByRole('cell')[i]!);
    for (const cell of diagonal) expect(cell.getAttribute('data-diagonal')).toBe('true');
    expect(within(rows[0]!).getAllByRole('cell')[1]!.getAttribute('data-diagonal')).toBeNull();

    expect(screen.getByText('Accuracy: 70.0% of 10 snippets')).toBeTruthy();
    expect(screen.getByText(/precision\s+recall\s+f1-score\s+support/).tagName).toBe('PRE');
    expect(screen.getByText('Model: Writers of Utrecht')).toBeTruthy();
  });
});
