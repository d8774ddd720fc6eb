import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { renderApp } from '../../test/render';
import { CHARTERS, DATE_FIELD, FOLIO_1, FOLIO_2, lineId, pick, similarityServer, snippetFixture, snippetId } from './fixtures.test-support';

const FOUND = [
  snippetFixture(7, FOLIO_2, { distance: 0.3333, cosineFromTarget: 0.75, tag: 'Bert' }),
  snippetFixture(8, FOLIO_2, { distance: 0.5, cosineFromTarget: null }),
];
const answers = {
  'POST siamese/findByModel': [snippetFixture(1), snippetFixture(2)],
  'POST siamese/findsinglenewmetadata': FOUND,
};

/** The image f. 1r of the charters, and its snippets shown. */
async function chooseImage(user: UserEvent) {
  await pick(user, 'Image set', CHARTERS.name);
  await pick(user, 'Image', FOLIO_1.name);
  return screen.findByRole('list', { name: `Snippets of ${FOLIO_1.name}` });
}

/** The page with snippet n (0-based) of f. 1r searched for, once its results are in. */
async function searchWithSnippet(user: UserEvent, n: number) {
  const server = similarityServer({ answers });
  renderApp('/findsiamesesingle');
  await screen.findByRole('textbox', { name: 'Image set' });
  const snippets = await chooseImage(user);
  await user.click(within(snippets).getAllByRole('button', { name: `Choose this snippet of ${FOLIO_1.name}` })[n]!);
  await screen.findByRole('list', { name: 'Nearest snippets' });
  return server;
}

stubObjectUrls('blob:snippet');

describe('/pim/findsiamesesingle', () => {
  it('searches for a clicked snippet of the chosen image with the default options, and not before', async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers });
    renderApp('/findsiamesesingle');
    expect(await screen.findByRole('heading', { name: 'Find Siamese Single' })).toBeTruthy();
    await screen.findByRole('textbox', { name: 'Image set' });
    expect(screen.getByText('Choose an image, then one of its snippets to search for.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Distance algorithm' }) as HTMLInputElement).value).toBe('Euclidean');

    const snippets = await chooseImage(user);
    expect(server.to('POST siamese/findByModel').map((request) => request.body)).toEqual([{ model: 'builtin', imageUuid: FOLIO_1.uuid }]);
    expect(server.to('POST siamese/findsinglenewmetadata')).toEqual([]);

    await user.click(within(snippets).getAllByRole('button', { name: `Choose this snippet of ${FOLIO_1.name}` })[0]!);
    const results = await screen.findByRole('list', { name: 'Nearest snippets' });
    expect(server.to('POST siamese/findsinglenewmetadata').map((request) => request.body)).toEqual([
      { model: 'builtin', exampleUuid: snippetId(1), onlyDifferentImages: false, onlyDifferentImageSets: false, distanceAlgorithm: 'Euclidean' },
    ]);
    const [first, second] = within(results).getAllByRole('listitem');
    expect(within(first!).getByText('Distance 0.333')).toBeTruthy();
    expect(within(first!).getByText('Cosine 0.750')).toBeTruthy();
    expect(within(first!).getByText('Bert')).toBeTruthy();
    expect(within(first!).getByRole('link', { name: FOLIO_2.name }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${FOLIO_2.uuid}&line=${lineId(7)}`);
    // No cosine, no cosine shown.
    expect(within(second!).queryByText(/^Cosine/)).toBeNull();
  });

  it('asks again with the options and the metadata value chosen', async () => {
    const user = userEvent.setup();
    const server = await searchWithSnippet(user, 1);

    await user.click(screen.getByRole('checkbox', { name: 'Only different images' }));
    await user.click(screen.getByRole('checkbox', { name: 'Only different image sets' }));
    await pick(user, 'Distance algorithm', 'Cosine');
    await pick(user, 'Metadata field', DATE_FIELD.name);
    await pick(user, 'Metadata value', '1450');

    await waitFor(() =>
      expect(server.to('POST siamese/findsinglenewmetadata').at(-1)?.body).toEqual({
        model: 'builtin',
        exampleUuid: snippetId(2),
        onlyDifferentImages: true,
        onlyDifferentImageSets: true,
        distanceAlgorithm: 'Cosine',
        pimField: DATE_FIELD.uuid,
        pimFieldValue: '1450',
      }),
    );
    expect(server.to('siamese/distancealgorithms')).toHaveLength(1);
  });

  it('forgets the chosen snippet when another image is chosen', async () => {
    const user = userEvent.setup();
    const server = await searchWithSnippet(user, 0);

    await pick(user, 'Image set', 'Letters 1850');
    expect(await screen.findByText('Choose an image, then one of its snippets to search for.')).toBeTruthy();
    expect(server.to('POST siamese/findsinglenewmetadata')).toHaveLength(1);
  });
});
