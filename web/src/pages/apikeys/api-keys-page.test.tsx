import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { apiKeyFixture, apiKeyServer, KEY_A, KEY_B, LIST_PATH } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr') as HTMLElement;

describe('/pim/apikeys', () => {
  it('lists the keys with user name, the start of the key, roles, disabled and an action', async () => {
    apiKeyServer([apiKeyFixture(KEY_A, 'minion-1', { roles: ['MINION'] }), apiKeyFixture(KEY_B, 'indexer', { roles: ['ADMIN', 'MINION'], disabled: true })]);
    renderApp('/apikeys');
    expect(await screen.findByRole('heading', { name: 'Api keys / minions' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Api keys / minions' });
    await within(table).findByText('minion-1');
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['User name', 'Api key', 'Roles', 'Disabled', 'Actions']);
    expect(cellTexts(rowOf(table, 'minion-1'))).toEqual(['minion-1', 'pim_mini…', 'MINION', 'No', 'Disable']);
    expect(cellTexts(rowOf(table, 'indexer'))).toEqual(['indexer', 'pim_inde…', 'ADMIN, MINION', 'Yes', 'Enable']);
  });

  it('disables and enables a key with PUT pim/apikey/{uuid}/disable|enable and reloads the list', async () => {
    const user = userEvent.setup();
    const fetchMock = apiKeyServer([apiKeyFixture(KEY_A, 'minion-1')]);
    renderApp('/apikeys');
    const table = await screen.findByRole('table', { name: 'Api keys / minions' });
    await within(table).findByText('minion-1');

    await user.click(within(rowOf(table, 'minion-1')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(cellTexts(rowOf(table, 'minion-1'))).toEqual(['minion-1', 'pim_mini…', '', 'Yes', 'Enable']));
    await user.click(within(rowOf(table, 'minion-1')).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(cellTexts(rowOf(table, 'minion-1'))).toEqual(['minion-1', 'pim_mini…', '', 'No', 'Disable']));

    const calls = fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
    expect(calls.filter((call) => call.includes('/apikey'))).toEqual([
      `GET ${LIST_PATH}`,
      `PUT ${LIST_PATH}/${KEY_A}/disable`,
      `GET ${LIST_PATH}`,
      `PUT ${LIST_PATH}/${KEY_A}/enable`,
      `GET ${LIST_PATH}`,
    ]);
  });

  it("goes to the creation form with 'New Api key'", async () => {
    apiKeyServer([]);
    const { router } = renderApp('/apikeys');
    await userEvent.click(await screen.findByRole('link', { name: 'New Api key' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/apikey'));
    expect(await screen.findByRole('heading', { name: 'New api Key / new minion' })).toBeTruthy();
  });

  it('tells a user who is not an admin that the keys need the ADMIN role, without asking the server', async () => {
    setToken('tok');
    const fetchMock = stubFetch(signedInHandler(['AUTHENTICATED']));
    renderApp('/apikeys');
    expect(await screen.findByText('Only administrators can see the api keys')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchedUrls(fetchMock)).not.toContain(LIST_PATH);
  });
});
