import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { COPYISTS, groupPath, groupServer, LIST_PATH, sampleGroups, SCRIBES } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest('tr') as HTMLElement;

describe('/pim/pimgroups', () => {
  it('lists the groups with name, members, subgroups, created, updated and a Delete action', async () => {
    groupServer(sampleGroups());
    renderApp('/pimgroups');
    expect(await screen.findByRole('heading', { name: 'User groups' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'User groups' });
    await within(table).findByText('Scribes');
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Members', 'Subgroups', 'Created', 'Updated', 'Actions']);
    expect(cellTexts(rowOf(table, 'Scribes'))).toEqual(['Scribes', '2', '1', '2024-06-01 09:00', '2024-06-02 10:30', 'Delete']);
    expect(cellTexts(rowOf(table, 'Daters'))).toEqual(['Daters', '0', '0', '2024-07-01 08:15', '2024-07-01 08:15', 'Delete']);
  });

  it('deletes a group only after Yes, then shows the list without it', async () => {
    const user = userEvent.setup();
    const fetchMock = groupServer(sampleGroups());
    const { router } = renderApp('/pimgroups');
    const table = await screen.findByRole('table', { name: 'User groups' });
    await within(table).findByText('Copyists');

    await user.click(within(table).getByRole('button', { name: 'Delete Copyists' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete group' });
    expect(within(dialog).getByText(/Delete the group 'Copyists'\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete group' })).toBeNull());
    expect(sent(fetchMock, 'DELETE', groupPath(COPYISTS))).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Delete Copyists' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete group' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(table).queryByText('Copyists')).toBeNull());
    expect(sent(fetchMock, 'DELETE', groupPath(COPYISTS))).toHaveLength(1);
    expect(fetchedUrls(fetchMock).filter((url) => url === LIST_PATH)).toHaveLength(2);
    expect(within(table).getByText('Scribes')).toBeTruthy();
    // The Delete button is not a row click.
    expect(router.state.location.pathname).toBe('/pim/pimgroups');
  });

  it('opens /pim/pimgroupedit?uuid= on a row click', async () => {
    const user = userEvent.setup();
    groupServer(sampleGroups());
    const { router } = renderApp('/pimgroups');
    await user.click(await screen.findByText('Scribes'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/pimgroupedit?uuid=${SCRIBES}`));
    expect(await screen.findByRole('heading', { name: 'Group Edit' })).toBeTruthy();
  });

  it('goes to /pim/pimgroup with New group', async () => {
    const user = userEvent.setup();
    groupServer(sampleGroups());
    const { router } = renderApp('/pimgroups');
    await user.click(await screen.findByRole('link', { name: 'New group' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/pimgroup'));
    expect(await screen.findByRole('textbox', { name: 'Name group' })).toBeTruthy();
  });

  it('tells a signed-in user who is not an admin that groups need the ADMIN role, without asking the server', async () => {
    setToken('tok');
    const fetchMock = stubFetch(signedInHandler(['AUTHENTICATED']));
    renderApp('/pimgroups');
    expect(await screen.findByText('Only administrators can see the groups')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('you need to log in')).toBeNull();
    expect(fetchMock.mock.calls.filter(([input]) => String(input).includes('/pimgroups'))).toEqual([]);
  });

  it.each(['/pimgroup', `/pimgroupedit?uuid=${'12345678-1234-4234-8234-123456789012'}`])('says %s needs the ADMIN role too', async (path) => {
    setToken('tok');
    stubFetch(signedInHandler(['AUTHENTICATED']));
    renderApp(path);
    expect(await screen.findByText('This needs the ADMIN role.')).toBeTruthy();
  });

  it('asks a signed-out visitor to log in instead of calling the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    renderApp('/pimgroups');
    expect(await screen.findByText('You need to log in to see this page.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
