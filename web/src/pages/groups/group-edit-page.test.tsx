import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fetchedUrls, renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import {
  ADA,
  ADA_EDITOR,
  BEN,
  changePath,
  COPYISTS,
  DATERS,
  groupPath,
  groupServer,
  hierarchyPath,
  sampleGroups,
  SCRIBES,
} from './fixtures.test-support';

const NO_GROUP = 'b0000000-0000-4000-8000-0000000000ff';

/** The tree item whose own row shows `text`; a picker's (hidden) options do not count. */
const itemOf = (text: string) =>
  screen.getByText(text, { ignore: 'script, style, [role="option"]' }).closest('li[role="treeitem"]') as HTMLElement;

async function openScribes() {
  const fetchMock = groupServer(sampleGroups());
  const view = renderApp(`/pimgroupedit?uuid=${SCRIBES}`);
  const tree = await screen.findByRole('tree', { name: 'Children' });
  await within(tree).findByText('Ada Researcher');
  return { ...view, fetchMock, tree };
}

describe('/pim/pimgroupedit', () => {
  it('sends the user to /pim/pimgroups without a uuid', async () => {
    groupServer(sampleGroups());
    const { router } = renderApp('/pimgroupedit');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/pimgroups'));
    expect(await screen.findByRole('table', { name: 'User groups' })).toBeTruthy();
  });

  it('shows an error toast and goes to /pim/pimgroups when the group cannot be loaded', async () => {
    const fetchMock = groupServer(sampleGroups());
    const { router } = renderApp(`/pimgroupedit?uuid=${NO_GROUP}`);
    expect(await screen.findByText('The group could not be loaded')).toBeTruthy();
    expect(screen.getByText(`There is no group with id ${NO_GROUP}.`)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/pimgroups'));
    expect(await screen.findByRole('table', { name: 'User groups' })).toBeTruthy();
    expect(fetchedUrls(fetchMock).filter((url) => url === hierarchyPath(NO_GROUP))).toHaveLength(1);
  });

  it("shows the heading, the group's name and renames it with Save", async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    expect(screen.getByRole('heading', { name: 'Group Edit' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Children' })).toBeTruthy();
    const name = screen.getByRole('textbox', { name: 'Name group' });
    expect(name).toHaveProperty('value', 'Scribes');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await user.clear(name);
    expect(save).toHaveProperty('disabled', true);
    await user.type(name, 'Scriptorium ');
    await user.click(save);

    expect(await screen.findByText('Pimgroup is saved successfully!')).toBeTruthy();
    expect(sent(fetchMock, 'POST', `${groupPath(SCRIBES)}/update`)).toEqual([{ name: 'Scriptorium' }]);
    // The root of the tree is the group itself, under its new name.
    expect(await within(tree).findByText('Scriptorium')).toBeTruthy();
    expect(save).toHaveProperty('disabled', true);
  });

  it('shows the group as the root with its subgroups as closed nodes and its memberships as leaves', async () => {
    const { tree } = await openScribes();
    const root = itemOf('Scribes');
    expect(root.getAttribute('aria-expanded')).toBe('true');
    const copyists = itemOf('Copyists');
    expect(copyists.getAttribute('aria-expanded')).toBe('false');
    expect(within(copyists).getByRole('link', { name: 'Copyists' }).getAttribute('href')).toBe(`/pim/pimgroupedit?uuid=${COPYISTS}`);
    const ada = itemOf('Ada Researcher');
    expect(ada.hasAttribute('aria-expanded')).toBe(false);
    expect(within(ada).getByText('EDITOR')).toBeTruthy();
    expect(within(ada).queryByText('disabled')).toBeNull();
    const ben = itemOf('Ben Archivist');
    expect(within(ben).getByText('MEMBER')).toBeTruthy();
    expect(within(ben).getByText('disabled')).toBeTruthy();
    expect(within(tree).queryByText('Carl Copyist')).toBeNull();
  });

  it("loads a subgroup's children once, when it is first opened", async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    const asked = () => fetchedUrls(fetchMock).filter((url) => url === hierarchyPath(COPYISTS));
    expect(asked()).toHaveLength(0);
    await user.click(within(tree).getByRole('button', { name: 'Open Copyists' }));
    expect(await within(tree).findByText('Carl Copyist')).toBeTruthy();
    expect(within(itemOf('Carl Copyist')).getByText('MEMBER')).toBeTruthy();
    await user.click(within(tree).getByRole('button', { name: 'Close Copyists' }));
    expect(within(tree).queryByText('Carl Copyist')).toBeNull();
    await user.click(within(tree).getByRole('button', { name: 'Open Copyists' }));
    expect(within(tree).getByText('Carl Copyist')).toBeTruthy();
    expect(asked()).toHaveLength(1);
    expect(fetchedUrls(fetchMock).filter((url) => url === hierarchyPath(SCRIBES))).toHaveLength(1);
  });

  it("adds a subgroup picked from the group's own candidates", async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    const add = within(tree).getByRole('button', { name: 'Add subgroup to Scribes' });
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(tree).getByRole('textbox', { name: 'Add a subgroup to Scribes' }));
    await user.click(await screen.findByRole('option', { name: 'Daters' }));
    expect(fetchedUrls(fetchMock)).toContain(`/api/pim/pimgroups/autocomplete/${SCRIBES}?onlyOwnData=false&filter=`);
    expect(add).toHaveProperty('disabled', false);
    await user.click(add);

    const daters = await waitFor(() => itemOf('Daters'));
    expect(daters.getAttribute('aria-expanded')).toBe('false');
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'addSubgroup'))).toEqual([{ uuid: DATERS }]);
    const picker = within(tree).getByRole('textbox', { name: 'Add a subgroup to Scribes' });
    expect(picker).toHaveProperty('value', '');
    expect(within(tree).getByRole('button', { name: 'Add subgroup to Scribes' })).toHaveProperty('disabled', true);
    // The candidates are asked for again: Daters is a subgroup now.
    await user.click(picker);
    const candidateCalls = () => fetchedUrls(fetchMock).filter((url) => url.startsWith(`/api/pim/pimgroups/autocomplete/${SCRIBES}?`));
    await waitFor(() => expect(candidateCalls()).toHaveLength(2));
    expect(await screen.findByText('Nothing found')).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Daters' })).toBeNull();
  });

  it('removes a subgroup from its parent and a membership from its group', async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    await user.click(within(tree).getByRole('button', { name: 'Remove subgroup Copyists' }));
    await waitFor(() => expect(within(tree).queryByText('Copyists')).toBeNull());
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'removeSubgroup'))).toEqual([{ uuid: COPYISTS }]);

    await user.click(within(tree).getByRole('button', { name: 'Remove membership of Ada Researcher (EDITOR)' }));
    await waitFor(() => expect(within(tree).queryByText('Ada Researcher')).toBeNull());
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'removemembership'))).toEqual([{ membershipId: ADA_EDITOR }]);
    expect(within(tree).getByText('Ben Archivist')).toBeTruthy();
  });

  it('removes a membership of an opened subgroup from that subgroup', async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    await user.click(within(tree).getByRole('button', { name: 'Open Copyists' }));
    await user.click(await within(tree).findByRole('button', { name: 'Remove membership of Carl Copyist (MEMBER)' }));
    await waitFor(() => expect(within(tree).queryByText('Carl Copyist')).toBeNull());
    expect(sent(fetchMock, 'PUT', changePath(COPYISTS, 'removemembership'))).toHaveLength(1);
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'removemembership'))).toHaveLength(0);
  });

  it('adds a membership: the dialog waits for a user and a role, then puts {userId, role}', async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    await user.click(within(tree).getByRole('button', { name: 'Add membership to Scribes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add membership' });
    const add = within(dialog).getByRole('button', { name: 'Add membership' });
    expect(add).toHaveProperty('disabled', true);

    await user.click(within(dialog).getByRole('textbox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'Ada Researcher' }));
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    expect(await screen.findByRole('option', { name: 'MEMBER' })).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'ADMIN' }));
    expect(add).toHaveProperty('disabled', false);
    expect(fetchedUrls(fetchMock)).toContain(`${groupPath(SCRIBES)}/possibleroles`);
    await user.click(add);

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add membership' })).toBeNull());
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'addmembership'))).toEqual([{ userId: ADA.uuid, role: 'ADMIN' }]);
    expect(await within(tree).findAllByText('Ada Researcher')).toHaveLength(2);
    expect(within(tree).getByText('ADMIN')).toBeTruthy();
  });

  it("adds a membership to a subgroup with that subgroup's id", async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    await user.click(within(tree).getByRole('button', { name: 'Add membership to Copyists' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add membership' });
    await user.click(within(dialog).getByRole('textbox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'Ben Archivist' }));
    await user.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'EDITOR' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add membership' }));
    await waitFor(() =>
      expect(sent(fetchMock, 'PUT', changePath(COPYISTS, 'addmembership'))).toEqual([{ userId: BEN.uuid, role: 'EDITOR' }]),
    );
    expect(fetchedUrls(fetchMock)).toContain(`${groupPath(COPYISTS)}/possibleroles`);
  });

  it('closes the membership dialog with Cancel without sending anything', async () => {
    const user = userEvent.setup();
    const { fetchMock, tree } = await openScribes();
    await user.click(within(tree).getByRole('button', { name: 'Add membership to Scribes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add membership' });
    await user.click(within(dialog).getByRole('textbox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'Ben Archivist' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add membership' })).toBeNull());
    expect(sent(fetchMock, 'PUT', changePath(SCRIBES, 'addmembership'))).toHaveLength(0);
  });
});
