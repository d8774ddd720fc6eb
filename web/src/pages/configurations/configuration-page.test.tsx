import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { configurationPath, configurationServer, CREATE_PATH, MAIL, sampleConfigurations } from './fixtures.test-support';

const SAVED = 'Configuration is saved successfully.';

describe('/pim/configuration', () => {
  it('creates a configuration with Key and Value, then goes back to the list with a toast', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = configurationServer(sampleConfigurations());
    const { router } = renderApp('/configuration');
    expect(await screen.findByRole('heading', { name: 'New configuration' })).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a key.')).toBeTruthy();
    expect(sent(fetchMock, 'POST', CREATE_PATH)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Key' }), '  search.url ');
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'https://search.example.org');
    expect(screen.queryByText('Enter a key.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/configurations'));
    expect(sent(fetchMock, 'POST', CREATE_PATH)).toEqual([{ key: 'search.url', value: 'https://search.example.org' }]);
    expect(show).toHaveBeenCalledWith({ color: 'green', message: SAVED });
    expect(await screen.findByText('search.url')).toBeTruthy();
  });

  it('updates a configuration with PUT, and keeps the form with the server message on a taken key', async () => {
    const user = userEvent.setup();
    const fetchMock = configurationServer(sampleConfigurations());
    const { router } = renderApp(`/configuration?id=${MAIL}`);
    const key = (await screen.findByRole('textbox', { name: 'Key' })) as HTMLInputElement;
    expect((screen.getByRole('textbox', { name: 'Value' }) as HTMLTextAreaElement).value).toBe('smtp.example.org');

    await user.clear(key);
    await user.type(key, 'theme');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/A configuration with the key "theme" already exists/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pim/configuration');

    await user.clear(key);
    await user.type(key, 'mail.server');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/configurations'));
    expect(sent(fetchMock, 'PUT', configurationPath(MAIL))).toEqual([
      { key: 'theme', value: 'smtp.example.org' },
      { key: 'mail.server', value: 'smtp.example.org' },
    ]);
  });

  it('says so when the configuration does not exist, instead of an empty form', async () => {
    const unknown = 'c0000000-0000-4000-8000-00000000dead';
    configurationServer(sampleConfigurations());
    renderApp(`/configuration?id=${unknown}`);
    expect(await screen.findByText('The configuration could not be loaded')).toBeTruthy();
    expect(screen.getByText(`There is no configuration with id ${unknown}.`)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Key' })).toBeNull();
  });
});
