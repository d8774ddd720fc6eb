import { notifications } from '@mantine/notifications';
import { ENVIRONMENT_SWITCHES } from '@pim/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import {
  APACHE_CONFIG,
  CHARTERS_ENV,
  CHARTERS_INDEX,
  environmentPath,
  environmentServer,
  LETTERS_ENV,
  LIST_PATH,
  sampleEnvironments,
} from './fixtures.test-support';

const SAVED = 'Environment is saved successfully.';
const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const allOff = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, false]));

describe('/pim/environments', () => {
  it('lists Title, UUID and the name of the search index; a row opens the environment', async () => {
    const user = userEvent.setup();
    environmentServer(sampleEnvironments());
    const { router } = renderApp('/environments');
    const table = await screen.findByRole('table', { name: 'Environments' });
    await within(table).findByText('Letters');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Title', 'UUID', 'elasticSearchIndex']);
    expect(cellTexts(within(table).getByText('Letters').closest('tr')!)).toEqual(['Letters', LETTERS_ENV, 'letters']);
    expect(cellTexts(within(table).getByText('Charters').closest('tr')!)).toEqual(['Charters', CHARTERS_ENV, '']);

    await user.click(within(table).getByText('Letters'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/environment?uuid=${LETTERS_ENV}`));
    expect(await screen.findByRole('heading', { name: 'Update environment' })).toBeTruthy();
  });
});

describe('/pim/environment', () => {
  it('shows every text field and switch of the environment, and domain and the Apache configuration read-only', async () => {
    environmentServer(sampleEnvironments());
    renderApp(`/environment?uuid=${LETTERS_ENV}`);
    const title = (await screen.findByRole('textbox', { name: /^Title/ })) as HTMLInputElement;
    expect(title.value).toBe('Letters');
    expect((screen.getByRole('textbox', { name: 'elasticSearchIndex' }) as HTMLInputElement).value).toBe('letters');
    for (const name of ['about', 'mainText', 'searchLabel', 'logoClass', 'topBarClasses', 'instructions']) {
      expect(screen.getByRole('textbox', { name })).toBeTruthy();
    }
    expect((screen.getByRole('textbox', { name: 'about' }) as HTMLTextAreaElement).value).toBe('About the letters');
    for (const name of ENVIRONMENT_SWITCHES) {
      expect((screen.getByRole('switch', { name }) as HTMLInputElement).checked, name).toBe(name === 'persons');
    }
    const domain = screen.getByRole('textbox', { name: 'domain' }) as HTMLInputElement;
    expect(domain.value).toBe('search.example.org');
    expect(domain.readOnly).toBe(true);
    const config = screen.getByRole('textbox', { name: 'generateApacheConfig' }) as HTMLTextAreaElement;
    expect(config.value).toBe(APACHE_CONFIG);
    expect(config.readOnly).toBe(true);

    const show = vi.spyOn(notifications, 'show');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Copy the Apache configuration' }));
    await waitFor(() => expect(show).toHaveBeenCalledWith({ color: 'green', message: 'The Apache configuration has been copied to the clipboard.' }));
    expect(await navigator.clipboard.readText()).toBe(APACHE_CONFIG);
  });

  it('creates an environment with its switches and index, without the derived fields, and goes back to the list', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = environmentServer(sampleEnvironments());
    const { router } = renderApp('/environment');
    expect(await screen.findByRole('heading', { name: 'New environment' })).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a title.')).toBeTruthy();
    expect(screen.getByText('Enter the path of the front-end, e.g. letters.')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Prize papers');
    await user.type(screen.getByRole('textbox', { name: /^path/ }), 'Prize Papers');
    expect(screen.getByText(/A path is one URL segment/)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /^path/ }));
    await user.type(screen.getByRole('textbox', { name: /^path/ }), 'prize-papers');
    await user.type(screen.getByRole('textbox', { name: /^address/ }), 'search.example.org');
    expect(screen.getByText(/The address is the base URL of the public site/)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /^address/ }));
    await user.type(screen.getByRole('textbox', { name: /^address/ }), 'https://prize.example.org');
    await user.type(screen.getByRole('textbox', { name: 'searchLabel' }), 'Search the papers');
    await user.click(screen.getByRole('textbox', { name: 'elasticSearchIndex' }));
    await user.click(await screen.findByRole('option', { name: 'charters' }));
    await user.click(screen.getByRole('switch', { name: 'prizePapers' }));
    await user.click(screen.getByRole('switch', { name: 'publish' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/environments'));
    expect(show).toHaveBeenCalledWith({ color: 'green', message: SAVED });
    expect(sent(fetchMock, 'POST', LIST_PATH)).toEqual([
      {
        title: 'Prize papers',
        path: 'prize-papers',
        address: 'https://prize.example.org',
        elasticSearchIndex: { uuid: CHARTERS_INDEX.uuid },
        about: '',
        mainText: '',
        searchLabel: 'Search the papers',
        logoClass: '',
        topBarClasses: '',
        instructions: '',
        ...allOff,
        prizePapers: true,
        publish: true,
      },
    ]);
    expect(await screen.findByText('Prize papers')).toBeTruthy();
  });

  it('updates with PUT, keeping what was not changed, and stays on the form when the path is taken', async () => {
    const user = userEvent.setup();
    const fetchMock = environmentServer(sampleEnvironments());
    const { router } = renderApp(`/environment?uuid=${CHARTERS_ENV}`);
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Charters 2');
    await user.click(screen.getByRole('switch', { name: 'year' }));
    const path = screen.getByRole('textbox', { name: /^path/ });
    await user.clear(path);
    await user.type(path, 'letters');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/An environment with the path "letters" already exists/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pim/environment');

    await user.clear(path);
    await user.type(path, 'charters');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/environments'));
    expect(sent(fetchMock, 'PUT', environmentPath(CHARTERS_ENV))).toEqual([
      expect.objectContaining({ title: 'Charters 2', path: 'letters', year: true }),
      expect.objectContaining({ title: 'Charters 2', path: 'charters', elasticSearchIndex: null, year: true, day: false }),
    ]);
  });

  it('shows a clear error for an unknown environment instead of an empty form', async () => {
    const unknown = 'e1000000-0000-4000-8000-00000000dead';
    environmentServer(sampleEnvironments());
    renderApp(`/environment?uuid=${unknown}`);
    expect(await screen.findByText('The environment could not be loaded')).toBeTruthy();
    expect(screen.getByText(`There is no environment with id ${unknown}.`)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Title/ })).toBeNull();
  });
});
