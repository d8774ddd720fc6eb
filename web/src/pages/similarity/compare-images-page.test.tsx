import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { renderApp } from '../../test/render';
import { CHARTERS, FOLIO_1, FOLIO_2, LETTERS, lineId, pick, similarityServer, snippetFixture } from './fixtures.test-support';

const COMPARISON = {
  distance: 0.4567,
  pairs: [
    { query: snippetFixture(1, FOLIO_1), match: snippetFixture(11, FOLIO_2, { distance: 0.4, cosineFromTarget: 0.8 }) },
    { query: snippetFixture(2, FOLIO_1), match: snippetFixture(12, FOLIO_2, { distance: 0.6, cosineFromTarget: 0.7 }) },
  ],
};

stubObjectUrls('blob:snippet');

describe('/pim/findsiamesesingleimage', () => {
  it('compares two images only once both are chosen: their distance and each snippet beside its nearest', async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers: { 'POST siamese/compareimagesnippets': COMPARISON } });
    renderApp('/findsiamesesingleimage');
    expect(await screen.findByRole('heading', { name: 'Siamese compare images' })).toBeTruthy();
    await screen.findByRole('textbox', { name: 'Image set' });
    expect(screen.getByText('Choose an image on both sides to compare them.')).toBeTruthy();

    await pick(user, 'Image set', CHARTERS.name);
    await pick(user, 'Image', FOLIO_1.name);
    await pick(user, 'Image set of the second image', LETTERS.name);
    expect(server.to('POST siamese/compareimagesnippets')).toEqual([]);
    expect(screen.getByText('Choose an image on both sides to compare them.')).toBeTruthy();

    await pick(user, 'Second image', FOLIO_2.name);
    expect(await screen.findByText('Distance between the images: 0.457')).toBeTruthy();
    expect(server.to('POST siamese/compareimagesnippets').map((request) => request.body)).toEqual([
      { model: 'builtin', imageUuid: FOLIO_1.uuid, exampleUuid: FOLIO_2.uuid },
    ]);
    const pairs = within(screen.getByRole('list', { name: 'Snippet pairs' })).getAllByRole('listitem');
    expect(pairs).toHaveLength(2);
    expect(within(pairs[0]!).getByText('line 1 of f. 1r')).toBeTruthy();
    expect(within(pairs[0]!).getByText('line 11 of f. 2v')).toBeTruthy();
    expect(within(pairs[0]!).getByText('Distance 0.400')).toBeTruthy();
    expect(within(pairs[0]!).getByRole('link', { name: FOLIO_2.name }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${FOLIO_2.uuid}&line=${lineId(11)}`);
    expect(within(pairs[1]!).getByText('Distance 0.600')).toBeTruthy();
  });

  it('says so when the images have no snippets to compare', async () => {
    const user = userEvent.setup();
    similarityServer({ answers: { 'POST siamese/compareimagesnippets': { distance: null, pairs: [] } } });
    renderApp('/findsiamesesingleimage');
    await screen.findByRole('textbox', { name: 'Image set' });
    await pick(user, 'Image set', CHARTERS.name);
    await pick(user, 'Image', FOLIO_1.name);
    await pick(user, 'Image set of the second image', LETTERS.name);
    await pick(user, 'Second image', FOLIO_2.name);
    expect(await screen.findByText('The images have no snippets to compare.')).toBeTruthy();
    expect(screen.getByText('No similar snippets found.')).toBeTruthy();
  });
});
