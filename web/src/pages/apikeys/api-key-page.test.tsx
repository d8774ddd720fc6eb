import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { apiKeyFixture, apiKeyServer, KEY_A, LIST_PATH } from './fixtures.test-support';

const WHOLE_KEY = 'pim_mini7c1f3e9a0b2d4c6e8f0a1b3c5d7e9f1a';
const COPIED_TOAST = 'The link has been copied to clipboard.';

describe('/pim/apikey', () => {
  it('keeps Save disabled until there is a user name', async () => {
    const user = userEvent.setup();
    apiKeyServer([]);
    renderApp('/apikey');
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await user.type(screen.getByRole('textbox', { name: 'User name' }), '   ');
    expect(save).toHaveProperty('disabled', true);
    await user.type(screen.getByRole('textbox', { name: 'User name' }), 'minion-1');
    expect(save).toHaveProperty('disabled', false);
  });

  it('posts {userName, roles}, shows the whole key once and copies it with a toast', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const created = apiKeyFixture(KEY_A, 'minion-1', { apiKey: WHOLE_KEY, roles: ['MINION'] });
    const fetchMock = apiKeyServer([], created);
    const { router } = renderApp('/apikey');

    await user.type(await screen.findByRole('textbox', { name: 'User name' }), ' minion-1 ');
    await user.click(screen.getByRole('textbox', { name: 'Roles' }));
    await user.click(await screen.findByRole('option', { name: 'MINION' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const key = (await screen.findByRole('textbox', { name: 'Api key' })) as HTMLInputElement;
    expect(sent(fetchMock, 'POST', LIST_PATH)).toEqual([{ userName: 'minion-1', roles: ['MINION'] }]);
    expect(key.value).toBe(WHOLE_KEY);
    expect(key.readOnly).toBe(true);
    expect(screen.getByText(/it will not be shown again/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Copy the api key' }));
    await waitFor(() => expect(show).toHaveBeenCalledWith({ color: 'green', message: COPIED_TOAST }));
    expect(await navigator.clipboard.readText()).toBe(WHOLE_KEY);
    expect(await screen.findByText(COPIED_TOAST)).toBeTruthy();

    await user.click(screen.getAllByRole('link', { name: 'Back to the api keys' }).at(-1)!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/apikeys'));
    expect(await screen.findByRole('table', { name: 'Api keys / minions' })).toBeTruthy();
  });
});
