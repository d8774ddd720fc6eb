import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGHLIGHT_POST, HIGHLIGHT_PRE, textQuery } from '../../api/search';
import { jsonResponse, renderApp } from '../../test/render';
import { facetAnswer, hitFixture, hitsAnswer, imageId, mark, searchServer, SET } from './fixtures.test-support';

const FACET = facetAnswer([
  { key: 'deu', doc_count: 12 },
  { key: 'lat', doc_count: 5 },
  // The engine's bucket of images without a language: not a value to filter by.
  { key: '', doc_count: 3 },
]);

const addressOf = (router: ReturnType<typeof renderApp>['router']) => new URLSearchParams(router.state.location.search);

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:thumbnail');
  URL.revokeObjectURL = vi.fn();
});

describe('the text query', () => {
  it('is every word, fuzzy, over text, htr and persons; a phrase in quotes; everything when blank', () => {
    expect(textQuery('Aufklarung Kant')).toEqual({
      multi_match: { query: 'Aufklarung Kant', fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO', operator: 'and' },
    });
    expect(textQuery(' "Jtem so hat" ')).toEqual({ multi_match: { query: 'Jtem so hat', fields: ['text', 'htr', 'persons'], type: 'phrase' } });
    expect(textQuery('  ')).toEqual({ match_all: {} });
    expect(textQuery('""')).toEqual({ multi_match: { query: '""', fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO', operator: 'and' } });
  });
});

describe('/pim/search', () => {
  it('sends the hits and the language facet as one NDJSON _msearch built from the address', async () => {
    const { sent } = searchServer({ answer: () => [hitsAnswer([hitFixture(1)], 45), FACET] });
    renderApp('/search?q=Aufklarung&lang=deu&sort=relevance&page=3');
    await screen.findByText('45 hits');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.contentType).toBe('application/x-ndjson');
    const [hitsHeader, hits, facetHeader, facet] = sent[0]!.lines;
    const query = { multi_match: { query: 'Aufklarung', fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO', operator: 'and' } };
    expect(hitsHeader).toEqual({});
    expect(hits).toEqual({
      query: { bool: { must: [query], filter: [{ terms: { language: ['deu'] } }] } },
      sort: ['_score'],
      from: 40,
      size: 20,
      highlight: { pre_tags: [HIGHLIGHT_PRE], post_tags: [HIGHLIGHT_POST], fields: { text: {}, htr: {}, persons: {} } },
    });
    // The facet counts every language, the chosen one's filter left out.
    expect(facetHeader).toEqual({});
    expect(facet).toEqual({ query, size: 0, aggs: { language: { terms: { field: 'language', size: 10 } } } });
  });

  it('starts with everything, sorted by page number, the box focused', async () => {
    const { sent } = searchServer({ answer: () => [hitsAnswer([hitFixture(1)]), FACET] });
    renderApp('/search');
    await screen.findByText('1 hit');
    expect(sent[0]!.lines[1]).toMatchObject({ query: { match_all: {} }, sort: [{ pagenumber: { order: 'asc' } }], from: 0, size: 20 });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search the text' }));
    expect(screen.getByRole('textbox', { name: 'Sort by' })).toHaveProperty('value', 'Pagenumber asc');
  });

  it('shows each hit with its thumbnail, set, page and highlighted snippets, all as text', async () => {
    const hostile = `<script>window.hacked = true</script> ${mark('Aufklärung')} <img src=x onerror="window.hacked = true">`;
    const withLine = hitFixture(1, { highlight: { text: [hostile], persons: [`Immanuel ${mark('Kant')}`] } });
    const withoutLine = hitFixture(2, { fields: {} });
    searchServer({ answer: () => [hitsAnswer([withLine, withoutLine]), FACET] });
    renderApp('/search?q=Aufklarung');
    const results = await screen.findByRole('region', { name: 'Hits' });
    const first = within(results).getByRole('article', { name: 'f. 1r' });

    const open = within(first).getByRole('link', { name: 'f. 1r' });
    expect(open.getAttribute('href')).toBe(`/pim/documentimage?uuid=${imageId(1)}&line=${withLine.fields!.pim_lines![0]!.id}`);
    expect(within(first).getByRole('link', { name: 'Charters of Utrecht' }).getAttribute('href')).toBe(`/pim/imageset?uuid=${SET}`);
    expect(within(first).getByText('Page 1')).toBeTruthy();
    expect((await within(first).findByRole('img', { name: 'f. 1r' })).getAttribute('src')).toBe('blob:thumbnail');

    const snippets = within(first).getByTestId('hit-snippets');
    expect([...snippets.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Aufklärung', 'Kant']);
    expect(snippets.textContent).toContain('<script>window.hacked = true</script> Aufklärung <img src=x');
    expect(document.querySelector('script, img[src="x"]')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();

    const second = within(results).getByRole('article', { name: 'f. 2r' });
    expect(within(second).getByRole('link', { name: 'f. 2r' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${imageId(2)}`);
    // No highlight (nothing matched a word): the start of the text instead.
    expect(within(second).getByText('Jtem ſo hat der herr')).toBeTruthy();
  });

  it('offers the real languages with their counts; choosing one filters, starts at page 1 and keeps the others counted', async () => {
    const user = userEvent.setup();
    const { sent } = searchServer({ answer: () => [hitsAnswer([hitFixture(1)], 17), FACET] });
    const { router } = renderApp('/search?q=herr&page=2');
    const filter = await screen.findByRole('group', { name: 'Language' });
    await within(filter).findByRole('checkbox', { name: 'German (deu) (12)' });
    expect(within(filter).getAllByRole('checkbox')).toHaveLength(2);
    expect(within(filter).getByRole('checkbox', { name: 'Latin (lat) (5)' })).toBeTruthy();

    await user.click(within(filter).getByRole('checkbox', { name: 'Latin (lat) (5)' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(addressOf(router).getAll('lang')).toEqual(['lat']);
    expect(addressOf(router).get('page')).toBeNull();
    expect(sent[1]!.lines[1]).toMatchObject({ query: { bool: { filter: [{ terms: { language: ['lat'] } }] } }, from: 0 });
    expect(within(filter).getByRole('checkbox', { name: 'Latin (lat) (5)' })).toHaveProperty('checked', true);
    expect(within(filter).getByRole('checkbox', { name: 'German (deu) (12)' })).toHaveProperty('checked', false);

    await user.click(within(filter).getByRole('checkbox', { name: 'Latin (lat) (5)' }));
    await waitFor(() => expect(addressOf(router).getAll('lang')).toEqual([]));
  });

  it('pages through 20 hits at a time and sorts, each in the address; Back returns to the last page', async () => {
    const user = userEvent.setup();
    const { sent } = searchServer({
      answer: (hits) => [hitsAnswer([hitFixture(1 + (hits.from as number))], 45), FACET],
    });
    const { router } = renderApp('/search?q=herr');
    await screen.findByText('45 hits');
    const pages = screen.getByRole('navigation', { name: 'Pages of hits' });
    expect(within(pages).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(within(pages).queryByRole('button', { name: 'Page 4' })).toBeNull();

    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await screen.findByRole('article', { name: 'f. 21r' });
    expect(addressOf(router).get('page')).toBe('2');
    expect(sent.at(-1)!.lines[1]).toMatchObject({ from: 20, size: 20 });
    expect(within(pages).getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    await user.click(screen.getByRole('textbox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Height' }));
    await waitFor(() => expect(addressOf(router).get('sort')).toBe('height'));
    expect(addressOf(router).get('page')).toBeNull();
    await waitFor(() => expect(sent.at(-1)!.lines[1]).toMatchObject({ sort: [{ height: { order: 'desc' } }], from: 0 }));

    await act(() => router.navigate(-1));
    expect(addressOf(router).get('page')).toBe('2');
    expect(addressOf(router).get('sort')).toBeNull();
    await screen.findByRole('article', { name: 'f. 21r' });
  });

  it('says "More than 10,000 hits" when the engine stopped counting', async () => {
    searchServer({ answer: () => [hitsAnswer([hitFixture(1)], 10_000, 'gte'), FACET] });
    renderApp('/search?q=der');
    expect(await screen.findByText('More than 10,000 hits')).toBeTruthy();
    // The last page Elasticsearch serves: from + size within its 10,000 window.
    expect(within(screen.getByRole('navigation', { name: 'Pages of hits' })).getByRole('button', { name: 'Page 500' })).toBeTruthy();
  });

  it('says when nothing was found', async () => {
    searchServer({ answer: () => [hitsAnswer([]), facetAnswer([])] });
    renderApp('/search?q=zzzz');
    expect(await screen.findByText('Nothing found.')).toBeTruthy();
    expect(screen.getByText('0 hits')).toBeTruthy();
    expect(screen.getByText('No language to filter by.')).toBeTruthy();
  });

  it("shows the engine's reason when a search is refused, in the response list or as the whole answer", async () => {
    const reason = '[query_string] is not supported by this search engine';
    searchServer({ answer: () => [{ error: { type: 'parsing_exception', reason }, status: 400 }, FACET] });
    const first = renderApp('/search?q=herr');
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.getByText('The search failed')).toBeTruthy();
    first.unmount();

    searchServer({ answer: () => jsonResponse({ error: { type: 'illegal_argument_exception', reason: 'Result window is too large' }, status: 400 }, 400) });
    renderApp('/search?q=herr&page=2');
    expect(await screen.findByText('Result window is too large')).toBeTruthy();
  });

  it('suggests words of the index for a typed last word longer than 2 characters, completes it, and searches on Enter', async () => {
    const user = userEvent.setup();
    const { sent, suggested } = searchServer({
      answer: () => [hitsAnswer([hitFixture(1)]), FACET],
      terms: (request) => (request.string === 'Aufk' ? ['Aufklärung', 'Aufkunft'] : []),
    });
    const { router } = renderApp('/search?q=Aufklarung');
    await screen.findByText('1 hit');
    const box = screen.getByRole('searchbox', { name: 'Search the text' });
    await user.clear(box);
    await user.type(box, 'Kant Au');
    await user.type(box, 'fk');
    expect(await screen.findByRole('option', { name: 'Kant Aufklärung' })).toBeTruthy();
    // Only the word typed, and only once it is longer than 2 characters.
    expect(suggested.every((request) => (request as { string: string }).string.length > 2)).toBe(true);
    expect(suggested.at(-1)).toEqual({ field: 'text', string: 'Aufk', size: 8 });
    // The query the box opened with, already searched for, is not completed.
    expect(suggested).not.toContainEqual(expect.objectContaining({ string: 'Aufklarung' }));

    await user.click(screen.getByRole('option', { name: 'Kant Aufklärung' }));
    expect(box).toHaveProperty('value', 'Kant Aufklärung');
    await user.type(box, '{Enter}');
    await waitFor(() => expect(addressOf(router).get('q')).toBe('Kant Aufklärung'));
    await waitFor(() => expect(sent.at(-1)!.lines[1]).toMatchObject({ query: { multi_match: { query: 'Kant Aufklärung' } } }));
  });
});
