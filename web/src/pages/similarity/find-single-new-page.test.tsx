import { featuresSchema } from '@pim/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { renderApp } from '../../test/render';
import { CHARTERS, FOLIO_1, FOLIO_2, pick, similarityServer, snippetFixture, snippetId } from './fixtures.test-support';

const addressOf = (router: ReturnType<typeof renderApp>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));

const FOUND = [snippetFixture(7, FOLIO_2, { distance: 0.25, cosineFromTarget: 0.9, tag: 'Anna' })];
const answers = {
  'POST siamese/findByModel': [snippetFixture(1), snippetFixture(2)],
  'siamese/findsinglenew': FOUND,
};

stubObjectUrls('blob:snippet');

describe('/pim/findsiamesesingle2', () => {
  it("searches for the snippet the address names with the defaults: cosine on, features '1..20'", async () => {
    const server = similarityServer({ answers });
    renderApp(`/findsiamesesingle2?uuid=${snippetId(1)}`);
    expect(await screen.findByRole('heading', { name: 'Find Siamese Single new' })).toBeTruthy();
    const results = await screen.findByRole('list', { name: 'Nearest snippets' });
    expect(server.to('siamese/findsinglenew').map((request) => request.query)).toEqual([{ uuid: snippetId(1), model: 'builtin', usecosine: 'true', features: '1..20' }]);
    expect(within(results).getByText('Distance 0.250')).toBeTruthy();
    expect(within(results).getByText('Anna')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Use cosine similarity' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Features' }) as HTMLInputElement).value).toBe('1..20');
  });

  it("searches only once a snippet of the chosen image is clicked, and puts it in the address", async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers });
    const { router } = renderApp('/findsiamesesingle2');
    await screen.findByRole('textbox', { name: 'Image set' });
    expect(screen.getByText('Choose a snippet: pick an image set and an image, then one of its snippets.')).toBeTruthy();

    await pick(user, 'Image set', CHARTERS.name);
    await pick(user, 'Image', FOLIO_1.name);
    const snippets = await screen.findByRole('list', { name: `Snippets of ${FOLIO_1.name}` });
    expect(server.to('POST siamese/findByModel').map((request) => request.body)).toEqual([{ model: 'builtin', imageUuid: FOLIO_1.uuid }]);
    expect(server.to('siamese/findsinglenew')).toEqual([]);

    await user.click(within(snippets).getAllByRole('button', { name: `Choose this snippet of ${FOLIO_1.name}` })[1]!);
    await screen.findByRole('list', { name: 'Nearest snippets' });
    expect(server.to('siamese/findsinglenew').map((request) => request.query.uuid)).toEqual([snippetId(2)]);
    expect(addressOf(router)).toEqual({ uuid: snippetId(2) });
  });

  it('asks again without cosine similarity when it is unticked, and says so in the address', async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers });
    const { router } = renderApp(`/findsiamesesingle2?uuid=${snippetId(1)}`);
    await screen.findByRole('list', { name: 'Nearest snippets' });
    await user.click(screen.getByRole('checkbox', { name: 'Use cosine similarity' }));
    await waitFor(() => expect(server.to('siamese/findsinglenew').map((request) => request.query.usecosine)).toEqual(['true', 'false']));
    expect(addressOf(router)).toEqual({ uuid: snippetId(1), usecosine: 'false' });
  });

  it("shows the contract's message under Features and does not search until they are valid", async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers });
    const { router } = renderApp(`/findsiamesesingle2?uuid=${snippetId(1)}`);
    await screen.findByRole('list', { name: 'Nearest snippets' });
    const features = screen.getByRole('textbox', { name: 'Features' });

    await user.clear(features);
    await user.type(features, '0..5');
    const message = featuresSchema.safeParse('0..5').error!.issues[0]!.message;
    expect(await screen.findByText(message)).toBeTruthy();
    expect(features.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Correct the features to search.')).toBeTruthy();

    await user.clear(features);
    await user.type(features, '3..7');
    await screen.findByRole('list', { name: 'Nearest snippets' });
    await waitFor(() => expect(server.to('siamese/findsinglenew').map((request) => request.query.features)).toContain('3..7'));
    // Only valid features were ever sent.
    for (const request of server.to('siamese/findsinglenew')) expect(featuresSchema.safeParse(request.query.features).success).toBe(true);
    expect(screen.queryByText(message)).toBeNull();
    expect(addressOf(router)).toEqual({ uuid: snippetId(1), features: '3..7' });
  });
});
