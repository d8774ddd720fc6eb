import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { sent } from '../users/fixtures.test-support';
import { groupServer, LIST_PATH, NEW_GROUP, sampleGroups } from './fixtures.test-support';

describe('/pim/pimgroup', () => {
  it('keeps Save disabled while the name is blank or longer than 255 characters', async () => {
    const user = userEvent.setup();
    const fetchMock = groupServer(sampleGroups());
    renderApp('/pimgroup');
    const name = await screen.findByRole('textbox', { name: 'Name group' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await user.type(name, '   ');
    expect(save).toHaveProperty('disabled', true);
    await user.clear(name);
    await user.click(name);
    await user.paste('x'.repeat(256));
    expect(save).toHaveProperty('disabled', true);
    expect(screen.getByText('A group name can be at most 255 characters.')).toBeTruthy();
    await user.type(name, '{Backspace}');
    expect(save).toHaveProperty('disabled', false);
    expect(screen.queryByText('A group name can be at most 255 characters.')).toBeNull();
    expect(sent(fetchMock, 'POST', `${LIST_PATH}/create`)).toHaveLength(0);
  });

  it('posts {name}, shows the saved toast and opens the new group in Group Edit', async () => {
    const user = userEvent.setup();
    const fetchMock = groupServer(sampleGroups());
    const { router } = renderApp('/pimgroup');
    await user.type(await screen.findByRole('textbox', { name: 'Name group' }), ' Illuminators ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Pimgroup is saved successfully!')).toBeTruthy();
    expect(sent(fetchMock, 'POST', `${LIST_PATH}/create`)).toEqual([{ name: 'Illuminators' }]);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/pimgroupedit?uuid=${NEW_GROUP}`));
    expect(await screen.findByRole('heading', { name: 'Group Edit' })).toBeTruthy();
    expect(await screen.findByDisplayValue('Illuminators')).toBeTruthy();
  });
});
