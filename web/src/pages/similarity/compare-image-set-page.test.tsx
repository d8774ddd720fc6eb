import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { jsonResponse, renderApp } from '../../test/render';
import { CHARTERS, FOLIO_1, FOLIO_2, LETTERS, lineId, pick, similarityServer, snippetFixture } from './fixtures.test-support';

const RANKED = [
  snippetFixture(21, FOLIO_2, { distance: 0.1, cosineFromTarget: 0.95, tag: 'Anna' }),
  snippetFixture(22, { uuid: 'c0000000-0000-4000-8000-000000000003', name: 'f. 3r' }, { distance: 0.9, cosineFromTarget: 0.2 }),
];

stubObjectUrls('blob:snippet');

describe('/pim/findsiamesesingleimageset', () => {
  it("ranks a set's images by likeness to the chosen image, asked only once both are chosen", async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers: { 'POST siamese/comparewithimageset': RANKED } });
    renderApp('/findsiamesesingleimageset');
    expect(await screen.findByRole('heading', { name: 'Siamese Compare With Image From Sets' })).toBeTruthy();
    await screen.findByRole('textbox', { name: 'Image set to search' });
    expect(screen.getByText('Choose an image and an image set to compare.')).toBeTruthy();

    await pick(user, 'Image set to search', LETTERS.name);
    await pick(user, 'Image set', CHARTERS.name);
    expect(server.to('POST siamese/comparewithimageset')).toEqual([]);
    await pick(user, 'Image', FOLIO_1.name);

    const ranked = await screen.findByRole('list', { name: 'Images, most similar first' });
    expect(server.to('POST siamese/comparewithimageset').map((request) => request.body)).toEqual([
      { model: 'builtin', imageUuid: FOLIO_1.uuid, imageSetUuid: LETTERS.uuid },
    ]);
    const items = within(ranked).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['f. 2v', 'f. 3r']);
    expect(within(items[0]!).getByText('Distance 0.100')).toBeTruthy();
    expect(within(items[0]!).getByText('Cosine 0.950')).toBeTruthy();
    expect(within(items[0]!).getByRole('link', { name: 'Open f. 2v at this line' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${FOLIO_2.uuid}&line=${lineId(21)}`);
  });

  it("shows the server's message when the comparison is refused", async () => {
    const user = userEvent.setup();
    similarityServer({
      answers: { 'POST siamese/comparewithimageset': jsonResponse({ error: 'forbidden', message: 'You may not read this image set.' }, 403) },
    });
    renderApp('/findsiamesesingleimageset');
    await screen.findByRole('textbox', { name: 'Image set to search' });
    await pick(user, 'Image set to search', LETTERS.name);
    await pick(user, 'Image set', CHARTERS.name);
    await pick(user, 'Image', FOLIO_1.name);
    expect(await screen.findAllByText(/You may not read this image set\./)).not.toHaveLength(0);
    expect(await screen.findByText('The search failed')).toBeTruthy();
  });
});
