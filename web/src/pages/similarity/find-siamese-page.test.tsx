import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubObjectUrls } from '../../components/authenticated-image/object-urls.test-support';
import { jsonResponse, renderApp } from '../../test/render';
import { BUILTIN, FOLIO_1, FOLIO_2, lineId, similarityServer, snippetFixture, snippetId, WRITERS, WRITERS_MODEL } from './fixtures.test-support';

const addressOf = (router: ReturnType<typeof renderApp>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));

const VALIDATION = [
  snippetFixture(1, FOLIO_1, { tag: 'Bert' }),
  snippetFixture(2, FOLIO_1, { tag: 'Anna' }),
  snippetFixture(3, FOLIO_2, { tag: 'Anna' }),
  snippetFixture(4, FOLIO_2, { tag: null }),
];
const NEAREST = [snippetFixture(3, FOLIO_2, { tag: 'Anna', distance: 0.125, cosineFromTarget: 0.98765 }), snippetFixture(4, FOLIO_2, { distance: 1.5, cosineFromTarget: 0.5 })];

stubObjectUrls('blob:snippet');

describe('/pim/findsiamese', () => {
  it("groups the built-in descriptor's labelled snippets by tag, and asks for nothing nearer before one is chosen", async () => {
    // The built-in descriptor is the default even when it is not the first model.
    const server = similarityServer({ models: [WRITERS, BUILTIN], answers: { 'siamese/validationsetnew': VALIDATION } });
    renderApp('/findsiamese');
    expect(await screen.findByRole('heading', { name: 'Find Siamese' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Anna (2)' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Anna (2)', 'Bert (1)', 'Without label (1)']);
    expect(within(screen.getByRole('list', { name: 'Anna' })).getAllByRole('listitem')).toHaveLength(2);
    expect(server.to('siamese/validationsetnew').map((request) => request.query)).toEqual([{ model: 'builtin' }]);
    expect(screen.getByText('Choose a snippet on the left to see its nearest snippets.')).toBeTruthy();
    expect(server.to('siamese/find')).toEqual([]);
  });

  it('shows the nearest snippets of a chosen one with distance, cosine, tag and a link to its line, and keeps the choice in the address', async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers: { 'siamese/validationsetnew': VALIDATION, 'siamese/find': NEAREST } });
    const { router } = renderApp('/findsiamese');
    const anna = await screen.findByRole('list', { name: 'Anna' });
    const choice = within(anna).getAllByRole('button', { name: 'Choose this snippet of f. 1r' })[0]!;
    await user.click(choice);

    const results = await screen.findByRole('list', { name: 'Nearest snippets' });
    expect(server.to('siamese/find').map((request) => request.query)).toEqual([{ id: snippetId(2), model: 'builtin' }]);
    expect(addressOf(router)).toEqual({ model: 'builtin', id: snippetId(2) });
    expect(choice.getAttribute('aria-pressed')).toBe('true');
    const [first, second] = within(results).getAllByRole('listitem');
    expect(within(first!).getByText('Distance 0.125')).toBeTruthy();
    expect(within(first!).getByText('Cosine 0.988')).toBeTruthy();
    expect(within(first!).getByText('Anna')).toBeTruthy();
    expect(within(first!).getByText('line 3 of f. 2v')).toBeTruthy();
    const link = within(first!).getByRole('link', { name: 'f. 2v' });
    expect(link.getAttribute('href')).toBe(`/pim/documentimage?uuid=${FOLIO_2.uuid}&line=${lineId(3)}`);
    expect(within(first!).getByRole('link', { name: 'Open f. 2v at this line' }).getAttribute('href')).toBe(link.getAttribute('href'));
    expect(within(second!).getByText('Distance 1.500')).toBeTruthy();
  });

  it("shows each snippet's crop fetched with the sign-in, from its IIIF address or its path below the API", async () => {
    const lineImage = snippetFixture(5, FOLIO_2, { imageLocation: `pim/pimsimpletextline/${lineId(5)}/image` });
    const server = similarityServer({ answers: { 'siamese/validationsetnew': [VALIDATION[0], lineImage] } });
    renderApp('/findsiamese');
    expect((await screen.findByRole('img', { name: 'Snippet of f. 1r' })).getAttribute('src')).toBe('blob:snippet');
    expect((await screen.findByRole('img', { name: 'Snippet of f. 2v' })).getAttribute('src')).toBe('blob:snippet');
    const authorization = expect.stringMatching(/tok$/);
    expect(server.thumbnails).toEqual([
      { url: VALIDATION[0]!.imageLocation, authorization },
      { url: expect.stringMatching(new RegExp(`^http://[^/]+/api/pim/pimsimpletextline/${lineId(5)}/image$`)), authorization },
    ]);
  });

  it('searches at once with the model and snippet a shared link names', async () => {
    const server = similarityServer({ answers: { 'siamese/validationsetnew': VALIDATION, 'siamese/find': [] } });
    renderApp(`/findsiamese?model=${WRITERS_MODEL}&id=${snippetId(1)}`);
    expect(await screen.findByText('No similar snippets found.')).toBeTruthy();
    expect(server.to('siamese/find').map((request) => request.query)).toEqual([{ id: snippetId(1), model: WRITERS_MODEL }]);
    expect(server.to('siamese/validationsetnew').map((request) => request.query)).toEqual([{ model: WRITERS_MODEL }]);
  });

  it('forgets the chosen snippet when another model is chosen', async () => {
    const user = userEvent.setup();
    const server = similarityServer({ answers: { 'siamese/validationsetnew': VALIDATION, 'siamese/find': NEAREST } });
    const { router } = renderApp(`/findsiamese?id=${snippetId(1)}`);
    await screen.findByRole('list', { name: 'Nearest snippets' });
    await user.click(screen.getByRole('textbox', { name: 'Model' }));
    await user.click(await screen.findByRole('option', { name: 'Writers of Utrecht (12 snippets)' }));
    await waitFor(() => expect(addressOf(router)).toEqual({ model: WRITERS_MODEL }));
    expect(await screen.findByText('Choose a snippet on the left to see its nearest snippets.')).toBeTruthy();
    await waitFor(() => expect(server.to('siamese/validationsetnew').map((request) => request.query.model)).toEqual(['builtin', WRITERS_MODEL]));
    expect(server.to('siamese/find')).toHaveLength(1);
  });

  it("shows the server's message when the search fails", async () => {
    similarityServer({
      answers: {
        'siamese/validationsetnew': VALIDATION,
        'siamese/find': jsonResponse({ error: 'not_found', message: 'There is no snippet with this id.' }, 404),
      },
    });
    renderApp(`/findsiamese?id=${snippetId(9)}`);
    expect(await screen.findByText('Unexpected server response: There is no snippet with this id.')).toBeTruthy();
    expect(await screen.findByText('The search failed')).toBeTruthy();
  });

  it('says so when no model has snippets yet', async () => {
    const server = similarityServer({ models: [] });
    renderApp('/findsiamese');
    expect(await screen.findByText(/No model has snippets yet/)).toBeTruthy();
    expect(server.to('siamese/validationsetnew')).toEqual([]);
  });
});
