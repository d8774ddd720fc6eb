import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fetchedUrls, jsonResponse, renderApp, stubFetch } from '../../test/render';
import { ada, BEN, ben, userServer } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('/pim/pimusers', () => {
  it('lists the users with name, email, roles, groups, disabled and the dates', async () => {
    userServer([ada({ roles: ['ADMIN'] }), ben({ disabled: true })], ['AUTHENTICATED', 'ADMIN']);
    renderApp('/pimusers');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Users' });
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Roles', 'Groups', 'Disabled', 'Created', 'Updated']);
    const row = (await within(table).findByText('Ben Archivist')).closest('tr') as HTMLElement;
    expect(cellTexts(row)).toEqual(['Ben Archivist', 'ben@example.org', '', 'Daters', 'Yes', '2024-02-03 09:15', '2024-04-05 16:45']);
    const other = within(table).getByText('Ada Researcher').closest('tr') as HTMLElement;
    expect(cellTexts(other)).toEqual(['Ada Researcher', 'ada@example.org', 'ADMIN', 'Scribes, Daters', 'No', '2024-01-01 00:00', '2024-01-01 00:00']);
  });

  it('opens /pim/pimuser?userid= on a row click', async () => {
    userServer([ada({ roles: ['ADMIN'] }), ben()], ['AUTHENTICATED', 'ADMIN']);
    const { router } = renderApp('/pimusers');
    await userEvent.click(await screen.findByText('Ben Archivist'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/pimuser?userid=${BEN}`));
    expect(await screen.findByDisplayValue('ben@example.org')).toBeTruthy();
  });

  it('tells a user without the admin role that the list needs it, without asking the server or telling them to log in', async () => {
    const fetchMock = userServer([ada(), ben()]);
    renderApp('/pimusers');
    expect(await screen.findByText('Only administrators can see the list of users')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('you need to log in')).toBeNull();
    expect(fetchedUrls(fetchMock).filter((url) => url.startsWith('/api/pim/users?') || url === '/api/pim/users')).toEqual([]);
  });

  it('asks a signed-out visitor to log in instead of calling the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    renderApp('/pimusers');
    expect(await screen.findByText('You need to log in to see this page.')).toBeTruthy();
    expect(fetchedUrls(fetchMock)).toEqual([]);
  });
});
