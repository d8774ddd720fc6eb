import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import elephantUrl from '../../assets/elephant.svg';
import { fetchedUrls, renderApp } from '../../test/render';
import { ADA, ada, BEN, ben, DATERS, SCRIBES, sent, userPath, userServer } from './fixtures.test-support';

const SAVED_TOAST = 'User is saved successfully!';
const ADMIN = ['AUTHENTICATED', 'ADMIN'];
const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

describe('/pim/pimuser without userid: the own profile', () => {
  it('loads self, shows the record and posts the edited name with the rest of the user', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = userServer([ada(), ben()]);
    renderApp('/pimuser');
    expect(await screen.findByRole('heading', { name: 'Your profile' })).toBeTruthy();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(textbox('Email').value).toBe('ada@example.org');
    expect(textbox('Email').readOnly).toBe(true);
    expect(textbox('Persistent id').value).toBe('ada-sub');
    expect(textbox('Persistent id').readOnly).toBe(true);
    expect(fetchedUrls(fetchMock).filter((url) => url.startsWith('/api/pim/users/') && url !== userPath('self'))).toEqual([]);

    await user.clear(name);
    await user.type(name, 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(SAVED_TOAST)).toBeTruthy();
    expect(show).toHaveBeenCalledWith({ color: 'green', message: SAVED_TOAST });
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toEqual([{ ...ada(), name: 'Ada Lovelace' }]);
    // The nav bar's avatar names the user from the session's own record, which is loaded again.
    expect(await screen.findByRole('link', { name: 'Profile of Ada Lovelace' })).toBeTruthy();
  });

  it('chooses the elephant avatar, shows both pictures, and the nav bar takes the new one after saving', async () => {
    const user = userEvent.setup();
    const fetchMock = userServer([ada(), ben()]);
    renderApp('/pimuser/self');
    const avatars = await screen.findByRole('radiogroup', { name: 'Avatar' });
    const defaultChoice = within(avatars).getByRole('radio', { name: 'Default' }) as HTMLInputElement;
    const elephant = within(avatars).getByRole('radio', { name: 'Elephant' }) as HTMLInputElement;
    expect(defaultChoice.checked).toBe(true);
    expect(within(avatars).getAllByRole('img', { hidden: true }).some((img) => img.getAttribute('src') === elephantUrl)).toBe(true);
    const navAvatar = screen.getByRole('link', { name: 'Profile of Ada Researcher' });
    expect(navAvatar.querySelector('img')).toBeNull();

    await user.click(elephant);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(SAVED_TOAST);
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toEqual([{ ...ada(), avatar: 'elephant' }]);
    await waitFor(() => expect(navAvatar.querySelector('img')?.getAttribute('src')).toBe(elephantUrl));
    expect(elephant.checked).toBe(true);

    await user.click(defaultChoice);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toHaveLength(2));
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)[1]).toEqual({ ...ada(), avatar: null });
  });

  it('shows the roles read-only on the own record, also to an admin, with no Disable or Enable button', async () => {
    const fetchMock = userServer([ada({ roles: ['ADMIN'] }), ben()], ADMIN);
    renderApp('/pimuser');
    await screen.findByRole('textbox', { name: 'Name' });
    const roles = textbox('Roles');
    expect(roles.readOnly).toBe(true);
    expect(screen.getByText('Nobody can change their own roles: ask another administrator.')).toBeTruthy();
    // The role shows as a pill that Backspace, which removes the last pill of an editable list, leaves alone.
    const pill = () => screen.queryByText('ADMIN', { selector: '.mantine-Pill-label' });
    expect(pill()).toBeTruthy();
    await userEvent.click(roles);
    await userEvent.keyboard('{Backspace}');
    expect(pill()).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(SAVED_TOAST);
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toEqual([ada({ roles: ['ADMIN'] })]);
    expect(screen.queryByRole('button', { name: 'Disable user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enable user' })).toBeNull();
    expect(fetchedUrls(fetchMock)).not.toContain('/api/pim/users/possibleroles');
  });

  it('treats ?userid= with the own uuid as the own profile', async () => {
    userServer([ada({ roles: ['ADMIN'] }), ben()], ADMIN);
    renderApp(`/pimuser?userid=${ADA}`);
    expect(await screen.findByRole('radiogroup', { name: 'Avatar' })).toBeTruthy();
    expect(textbox('Roles').readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Disable user' })).toBeNull();
  });

  it('lists the groups without links for a user who is not an admin, and sets the primary group', async () => {
    const user = userEvent.setup();
    const fetchMock = userServer([ada(), ben()]);
    renderApp('/pimuser');
    const groups = await screen.findByRole('list', { name: 'Groups' });
    expect(within(groups).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Scribes', 'Daters']);
    expect(within(groups).queryByRole('link')).toBeNull();
    expect(textbox('Primary group').value).toBe('Scribes');

    await user.click(textbox('Primary group'));
    await user.click(await screen.findByRole('option', { name: 'Daters' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(SAVED_TOAST);
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toEqual([{ ...ada(), primaryGroup: DATERS }]);
  });

  it('refuses a blank name at the field without calling the server', async () => {
    const user = userEvent.setup();
    const fetchMock = userServer([ada(), ben()]);
    renderApp('/pimuser');
    await user.clear(await screen.findByRole('textbox', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a name.')).toBeTruthy();
    expect(textbox('Name').getAttribute('aria-invalid')).toBe('true');
    expect(sent(fetchMock, 'POST', `${userPath(ADA)}/update`)).toEqual([]);
  });
});

describe('/pim/pimuser?userid=: another user', () => {
  it('lets an admin give roles and clear the primary group, without an avatar choice', async () => {
    const user = userEvent.setup();
    const fetchMock = userServer([ada({ roles: ['ADMIN'] }), ben({ primaryGroup: DATERS })], ADMIN);
    renderApp(`/pimuser?userid=${BEN}`);
    expect(await screen.findByRole('heading', { name: 'User' })).toBeTruthy();
    await screen.findByDisplayValue('Ben Archivist');
    expect(screen.queryByRole('radiogroup', { name: 'Avatar' })).toBeNull();
    const roles = textbox('Roles');
    expect(roles.readOnly).toBe(false);

    await user.click(roles);
    await user.click(await screen.findByRole('option', { name: 'ADMIN' }));
    await user.click(screen.getByRole('button', { name: 'Clear the primary group' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(SAVED_TOAST);
    expect(fetchedUrls(fetchMock)).toContain('/api/pim/users/possibleroles');
    expect(sent(fetchMock, 'POST', `${userPath(BEN)}/update`)).toEqual([{ ...ben(), roles: ['ADMIN'], primaryGroup: null }]);
  });

  it('links each group to its edit page for an admin', async () => {
    userServer([ada({ roles: ['ADMIN'] }), ben({ pimGroups: [SCRIBES, DATERS] })], ADMIN);
    renderApp(`/pimuser?userid=${BEN}`);
    const groups = await screen.findByRole('list', { name: 'Groups' });
    const links = within(groups).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Scribes', `/pim/pimgroupedit?uuid=${SCRIBES.uuid}`],
      ['Daters', `/pim/pimgroupedit?uuid=${DATERS.uuid}`],
    ]);
  });

  it('disables and enables the user with PUT .../disable and .../enable, showing the state', async () => {
    const user = userEvent.setup();
    const fetchMock = userServer([ada({ roles: ['ADMIN'] }), ben()], ADMIN);
    renderApp(`/pimuser?userid=${BEN}`);
    await screen.findByDisplayValue('Ben Archivist');
    expect(screen.queryByText('Disabled')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Disable user' }));
    expect(await screen.findByRole('button', { name: 'Enable user' })).toBeTruthy();
    expect(screen.getByText('Disabled')).toBeTruthy();
    expect(sent(fetchMock, 'PUT', `${userPath(BEN)}/disable`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Enable user' }));
    expect(await screen.findByRole('button', { name: 'Disable user' })).toBeTruthy();
    expect(screen.queryByText('Disabled')).toBeNull();
    expect(sent(fetchMock, 'PUT', `${userPath(BEN)}/enable`)).toHaveLength(1);
  });

  it("shows a message, not a form, to a user who is not an admin looking at someone else's record", async () => {
    const fetchMock = userServer([ada(), ben()]);
    renderApp(`/pimuser?userid=${BEN}`);
    expect(await screen.findByText('Only administrators can see the records of other users')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable user' })).toBeNull();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(fetchedUrls(fetchMock)).not.toContain(userPath(BEN));
  });
});
