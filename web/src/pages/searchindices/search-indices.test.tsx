import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { CHARTERS, indexPath, LETTER_SETS, LETTERS, LIST_PATH, sampleIndices, searchIndexServer } from './fixtures.test-support';

const SAVED = 'Elasticsearch index is saved successfully.';

describe('/pim/elasticsearchindices', () => {
  it('lists Name and UUID; a row opens the index, New index an empty form', async () => {
    const user = userEvent.setup();
    searchIndexServer(sampleIndices());
    const { router } = renderApp('/elasticsearchindices');
    expect(await screen.findByRole('heading', { name: 'Elasticsearch indices' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Elasticsearch indices' });
    await within(table).findByText('letters');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'UUID']);
    expect(within(table).getByText(CHARTERS)).toBeTruthy();

    await user.click(within(table).getByText('letters'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/elasticsearchindex?uuid=${LETTERS}`));
    expect(await screen.findByRole('heading', { name: 'Elasticsearch index' })).toBeTruthy();

    await user.click(screen.getAllByRole('link', { name: 'Back to the Elasticsearch indices' }).at(-1)!);
    await user.click(await screen.findByRole('link', { name: 'New index' }));
    expect(await screen.findByRole('heading', { name: 'New Elasticsearch index' })).toBeTruthy();
  });
});

describe('the search indices for a user without ADMIN', () => {
  it('lists them with New index disabled, shows an index read-only and refuses the new-index form', async () => {
    const user = userEvent.setup();
    const fetchMock = searchIndexServer(sampleIndices(), ['AUTHENTICATED']);
    const { router } = renderApp('/elasticsearchindices');
    const table = await screen.findByRole('table', { name: 'Elasticsearch indices' });
    await within(table).findByText('letters');
    expect(screen.getByRole('button', { name: 'New index' })).toHaveProperty('disabled', true);

    await user.click(within(table).getByText('letters'));
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveProperty('readOnly', true);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(await screen.findByRole('link', { name: 'Letters 1850' })).toBeTruthy();

    await router.navigate('/elasticsearchindex');
    expect(await screen.findByText('Only administrators can create search indices')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(sent(fetchMock, 'POST', LIST_PATH)).toHaveLength(0);
  });
});

describe('/pim/elasticsearchindex', () => {
  it('shows the contract message for a name Elasticsearch refuses, then creates the index and goes back to the list', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = searchIndexServer(sampleIndices());
    const { router } = renderApp('/elasticsearchindex');
    const title = await screen.findByRole('textbox', { name: 'Title' });

    await user.type(title, 'Letters 1900');
    expect(screen.getByText('A search index name must be in lower case.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent(fetchMock, 'POST', LIST_PATH)).toHaveLength(0);

    await user.clear(title);
    await user.type(title, 'letters/1900');
    expect(screen.getByText(/A search index name cannot contain spaces or any of/)).toBeTruthy();
    await user.clear(title);
    await user.type(title, 'letters-1900');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/elasticsearchindices'));
    expect(sent(fetchMock, 'POST', LIST_PATH)).toEqual([{ name: 'letters-1900' }]);
    expect(show).toHaveBeenCalledWith({ color: 'green', message: SAVED });
    expect(await screen.findByText('letters-1900')).toBeTruthy();
  });

  it('renames an index and lists the image sets that use it, each linking to its set', async () => {
    const user = userEvent.setup();
    const fetchMock = searchIndexServer(sampleIndices());
    const { router } = renderApp(`/elasticsearchindex?uuid=${LETTERS}`);
    const title = (await screen.findByRole('textbox', { name: 'Title' })) as HTMLInputElement;
    expect(title.value).toBe('letters');
    const sets = await screen.findByRole('list', { name: 'Image sets using this index' });
    const links = within(sets).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(
      LETTER_SETS.map((set) => [set.name, `/pim/imageset?uuid=${set.uuid}`]),
    );

    await user.clear(title);
    await user.type(title, 'charters');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/A search index named "charters" already exists/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pim/elasticsearchindex');

    await user.clear(title);
    await user.type(title, 'letters-all');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/elasticsearchindices'));
    expect(sent(fetchMock, 'PUT', indexPath(LETTERS))).toEqual([{ name: 'charters' }, { name: 'letters-all' }]);
  });

  it('says when no image set uses the index', async () => {
    searchIndexServer(sampleIndices());
    renderApp(`/elasticsearchindex?uuid=${CHARTERS}`);
    expect(await screen.findByText('No image set uses this index yet.')).toBeTruthy();
  });

  it('shows a clear error for an unknown index instead of an empty form', async () => {
    const unknown = 'd0000000-0000-4000-8000-00000000dead';
    searchIndexServer(sampleIndices());
    renderApp(`/elasticsearchindex?uuid=${unknown}`);
    expect(await screen.findByText('The search index could not be loaded')).toBeTruthy();
    expect(screen.getByText(`There is no search index with id ${unknown}.`)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
  });
});
