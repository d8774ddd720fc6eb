import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { renderApp, signedInHandler, stubFetch } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { configurationPath, configurationServer, MAIL, sampleConfigurations, THEME } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr') as HTMLElement;

describe('/pim/configurations', () => {
  it('lists key, value and uuid with Delete per row, long values shortened', async () => {
    configurationServer(sampleConfigurations());
    renderApp('/configurations');
    expect(await screen.findByRole('heading', { name: 'Configurations' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Configurations' });
    await within(table).findByText('mail.host');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Key', 'Value', 'UUID', 'Actions']);
    expect(cellTexts(rowOf(table, 'mail.host'))).toEqual(['mail.host', 'smtp.example.org', MAIL, 'Delete']);
    expect(cellTexts(rowOf(table, 'theme'))[1]).toBe(`${'x'.repeat(120)}…`);
  });

  it('deletes a configuration only after Yes, with a toast', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = configurationServer(sampleConfigurations());
    const { router } = renderApp('/configurations');
    const table = await screen.findByRole('table', { name: 'Configurations' });
    await within(table).findByText('theme');

    await user.click(within(table).getByRole('button', { name: 'Delete theme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete configuration' });
    expect(within(dialog).getByText(/Delete the configuration 'theme'\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(fetchMock, 'DELETE', configurationPath(THEME))).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Delete theme' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete configuration' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(table).queryByText('theme')).toBeNull());
    expect(sent(fetchMock, 'DELETE', configurationPath(THEME))).toHaveLength(1);
    expect(show).toHaveBeenCalledWith({ color: 'green', message: 'Configuration is deleted.' });
    expect(router.state.location.pathname).toBe('/pim/configurations');
  });

  it('opens the form of a row on a click, and a new one with New configuration', async () => {
    const user = userEvent.setup();
    configurationServer(sampleConfigurations());
    const { router } = renderApp('/configurations');
    await user.click(await screen.findByText('mail.host'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/configuration?id=${MAIL}`));
    expect(await screen.findByRole('heading', { name: 'Update configuration' })).toBeTruthy();
    expect(((await screen.findByRole('textbox', { name: 'Key' })) as HTMLInputElement).value).toBe('mail.host');

    await user.click(screen.getAllByRole('link', { name: 'Back to the configurations' }).at(-1)!);
    await user.click(await screen.findByRole('link', { name: 'New configuration' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/pim/configuration'));
    expect(await screen.findByRole('heading', { name: 'New configuration' })).toBeTruthy();
  });

  it.each([
    ['/configurations', 'Only administrators can see the configurations'],
    ['/configuration', 'Only administrators can see configurations'],
    ['/environments', 'Only administrators can see the environments'],
    ['/environment', 'Only administrators can see environments'],
  ])('tells a signed-in user who is not an admin that %s needs the ADMIN role, without asking the server', async (path, title) => {
    setToken('tok');
    const fetchMock = stubFetch(signedInHandler(['AUTHENTICATED']));
    renderApp(path);
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchMock.mock.calls.filter(([input]) => /configuration|environment/.test(String(input)))).toEqual([]);
  });
});
