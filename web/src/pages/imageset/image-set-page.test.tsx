import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderApp } from '../../test/render';
import { callsTo, GROUP, imageSet, imageSetServer, ROOT } from './fixtures.test-support';

const ENTRY = '88888888-8888-4888-8888-888888888888';
const entry = { uuid: ENTRY, group: { uuid: GROUP, name: 'Editors' }, role: 'MEMBER', permission: 'READ' };

describe('/pim/imageset', () => {
  it("shows Expected property 'uuid' to have a value without a uuid", async () => {
    renderApp('/imageset');
    expect(await screen.findByText("Expected property 'uuid' to have a value")).toBeTruthy();
  });

  it('offers settings and Delete only to those with WRITE and DELETE on the set', async () => {
    imageSetServer((url) =>
      url.pathname === `/api/pim/documentimageset/${ROOT}` ? jsonResponse({ ...imageSet(ROOT, 'Psalter A'), permissions: ['READ'] }) : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    expect(await screen.findByRole('button', { name: 'Delete' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Imageset settings' })).toHaveProperty('disabled', true);
    // Everyone who may read the set may look at its ACL.
    expect(screen.getByRole('button', { name: 'Acl editor' })).toHaveProperty('disabled', false);
  });

  it('shows a reader the ACL entries but not the means to change them, and says why', async () => {
    const user = userEvent.setup();
    imageSetServer((url) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) {
        return jsonResponse({ ...imageSet(ROOT, 'Psalter A'), publicDocumentImageSet: true, permissions: ['READ', 'WRITE'] });
      }
      if (url.pathname === `/api/pim/acl/allfor/${ROOT}`) return jsonResponse([entry]);
      if (url.pathname === '/api/pim/acl/permissions') return jsonResponse(['READ', 'WRITE', 'DELETE', 'ADMIN']);
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Acl editor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acl editor' });
    expect(await within(dialog).findByText('Editors')).toBeTruthy();
    const reason = 'Changing who has access needs ADMIN permission on this imageset, or being its owner or an administrator.';
    expect(within(dialog).getByText(reason)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Add' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByLabelText('Group')).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Delete the entry of Editors' })).toHaveProperty('disabled', true);
  });

  it('says a public set without entries is readable by everyone signed in', async () => {
    const user = userEvent.setup();
    imageSetServer((url) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse({ ...imageSet(ROOT, 'Psalter A'), publicDocumentImageSet: true });
      if (url.pathname === `/api/pim/acl/allfor/${ROOT}`) return jsonResponse([]);
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Acl editor' }));
    expect(await screen.findByText(/everyone signed in may read this public set/)).toBeTruthy();
  });

  it('links to the table of all its document images', async () => {
    imageSetServer();
    renderApp(`/imageset?uuid=${ROOT}`);
    const link = await screen.findByRole('link', { name: 'All document images' });
    expect(link.getAttribute('href')).toBe(`/pim/documentimages?documentimagesetuuid=${ROOT}`);
  });

  it('saves the settings: Save is disabled for an empty name, success shows the toast', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) =>
      url.pathname === '/api/pim/documentimageset/update' && init?.method === 'POST'
        ? jsonResponse({ ...imageSet(ROOT, 'Psalter B'), publish: true })
        : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Imageset settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Imageset settings' });
    const name = within(dialog).getByLabelText(/Name imageset/);
    const save = within(dialog).getByRole('button', { name: 'Save' });

    await user.clear(name);
    expect(save).toHaveProperty('disabled', true);
    await user.type(name, 'Psalter B');
    await user.type(within(dialog).getByLabelText('License'), 'CC BY 4.0');
    await user.click(within(dialog).getByLabelText('Publish'));
    expect(save).toHaveProperty('disabled', false);
    await user.click(save);

    expect(await screen.findByText('Imageset is saved successfully!')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Psalter B' })).toBeTruthy();
    const [post] = callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      uuid: ROOT,
      imageset: 'Psalter B',
      prettyName: null,
      description: null,
      license: 'CC BY 4.0',
      publish: true,
      publicDataSet: false,
      elasticSearchIndex: null,
    });
  });

  it('makes the set public for those who manage it, and says what is missing to the others', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) =>
      url.pathname === '/api/pim/documentimageset/update' && init?.method === 'POST'
        ? jsonResponse({ ...imageSet(ROOT, 'Psalter'), publicDocumentImageSet: true, publish: true })
        : undefined,
    );
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Imageset settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Imageset settings' });
    expect(within(dialog).getByText(/anyone may also read its manifest and images through IIIF/)).toBeTruthy();
    await user.click(within(dialog).getByLabelText(/^Public: everyone signed in/));
    await user.click(within(dialog).getByLabelText('Publish'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Imageset is saved successfully!');
    const [post] = callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ publicDocumentImageSet: true, publish: true });
  });

  it('leaves the Public switch disabled for a writer who does not manage the set, and does not send it', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse({ ...imageSet(ROOT, 'Psalter'), permissions: ['READ', 'WRITE'] });
      if (url.pathname === '/api/pim/documentimageset/update' && init?.method === 'POST') return jsonResponse(imageSet(ROOT, 'Psalter'));
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Imageset settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Imageset settings' });
    expect(within(dialog).getByLabelText(/^Public: everyone signed in/)).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Imageset is saved successfully!');
    const [post] = callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update');
    expect(JSON.parse(String(post?.[1]?.body))).not.toHaveProperty('publicDocumentImageSet');
  });

  it('picks the search index from the server and clears it again', async () => {
    const user = userEvent.setup();
    const INDEX = '77777777-7777-4777-8777-777777777777';
    const fetchMock = imageSetServer((url, init) => {
      if (url.pathname === '/api/pim/elasticsearchindex/autocomplete') {
        return jsonResponse({ results: [{ uuid: INDEX, name: 'letters-1850' }], pageSize: 20 });
      }
      if (url.pathname === '/api/pim/documentimageset/update' && init?.method === 'POST') {
        const { elasticSearchIndex } = JSON.parse(String(init.body)) as { elasticSearchIndex: { uuid: string } | null };
        return jsonResponse({ ...imageSet(ROOT, 'Psalter'), elasticSearchIndex: elasticSearchIndex && { uuid: INDEX, name: 'letters-1850' } });
      }
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Imageset settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Imageset settings' });
    const picker = within(dialog).getByLabelText('Search index');
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'letters-1850' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Imageset is saved successfully!');
    const [first] = callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update');
    expect(JSON.parse(String(first?.[1]?.body)).elasticSearchIndex).toEqual({ uuid: INDEX });

    await user.click(await screen.findByRole('button', { name: 'Imageset settings' }));
    const again = await screen.findByRole('dialog', { name: 'Imageset settings' });
    const cleared = within(again).getByLabelText('Search index');
    expect(cleared).toHaveProperty('value', 'letters-1850');
    await user.clear(cleared);
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update')).toHaveLength(2));
    const [, second] = callsTo(fetchMock, 'POST', '/api/pim/documentimageset/update');
    expect(JSON.parse(String(second?.[1]?.body)).elasticSearchIndex).toBeNull();
  });

  it('edits the ACL: lists the entries, Add waits for group, role and permission, Delete removes', async () => {
    const user = userEvent.setup();
    let entries = [entry];
    const fetchMock = imageSetServer((url, init) => {
      if (url.pathname === `/api/pim/acl/allfor/${ROOT}`) return jsonResponse(entries);
      if (url.pathname === '/api/pim/acl/permissions') return jsonResponse(['READ', 'WRITE', 'DELETE', 'ADMIN']);
      if (url.pathname === `/api/pim/pimgroups/${GROUP}/possibleroles`) return jsonResponse(['MEMBER', 'EDITOR', 'ADMIN']);
      if (url.pathname === '/api/pim/pimgroups/autocomplete') return jsonResponse({ results: [{ uuid: GROUP, name: 'Editors' }], pageSize: 20 });
      if (url.pathname === `/api/pim/acl/subject/${ROOT}`) {
        entries = [entry, { ...entry, uuid: '99999999-9999-4999-8999-999999999999', role: 'EDITOR', permission: 'ADMIN' }];
        return jsonResponse(entries);
      }
      if (url.pathname === `/api/pim/acl/${ENTRY}` && init?.method === 'DELETE') {
        entries = entries.filter((e) => e.uuid !== ENTRY);
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Acl editor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acl editor' });
    const table = await within(dialog).findByRole('table', { name: 'Access control entries' });
    expect(within(table).getByText('Editors')).toBeTruthy();

    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByLabelText('Group'));
    await user.click(await screen.findByRole('option', { name: 'Editors' }));
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'EDITOR' }));
    expect(add).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('textbox', { name: 'Permission' }));
    await user.click(await screen.findByRole('option', { name: 'ADMIN' }));
    expect(add).toHaveProperty('disabled', false);
    await user.click(add);

    await waitFor(() => expect(within(table).getAllByText('Editors')).toHaveLength(2));
    // The form starts again: no group left in the picker, nor role or permission.
    expect(within(dialog).getByLabelText('Group')).toHaveProperty('value', '');
    expect(within(dialog).getByRole('textbox', { name: 'Role' })).toHaveProperty('value', '');
    expect(within(dialog).getByRole('textbox', { name: 'Permission' })).toHaveProperty('value', '');
    expect(add).toHaveProperty('disabled', true);
    const [post] = callsTo(fetchMock, 'POST', `/api/pim/acl/subject/${ROOT}`);
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ group: GROUP, role: 'EDITOR', permission: 'ADMIN' });

    await user.click(within(table).getAllByRole('button', { name: 'Delete the entry of Editors' })[0] as HTMLElement);
    await waitFor(() => expect(within(table).getAllByText('Editors')).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', `/api/pim/acl/${ENTRY}`)).toHaveLength(1);
  });

  it('offers the roles of the chosen group: Role waits for a group and clears when the group changes', async () => {
    const user = userEvent.setup();
    const READERS = '78787878-7878-4787-8787-787878787878';
    const fetchMock = imageSetServer((url) => {
      if (url.pathname === `/api/pim/acl/allfor/${ROOT}`) return jsonResponse([]);
      if (url.pathname === '/api/pim/acl/permissions') return jsonResponse(['READ', 'WRITE', 'DELETE', 'ADMIN']);
      if (url.pathname === `/api/pim/pimgroups/${GROUP}/possibleroles`) return jsonResponse(['MEMBER', 'EDITOR', 'ADMIN']);
      if (url.pathname === `/api/pim/pimgroups/${READERS}/possibleroles`) return jsonResponse(['MEMBER']);
      if (url.pathname === '/api/pim/pimgroups/autocomplete') {
        return jsonResponse({ results: [{ uuid: GROUP, name: 'Editors' }, { uuid: READERS, name: 'Readers' }], pageSize: 20 });
      }
      return undefined;
    });
    renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Acl editor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acl editor' });
    const role = within(dialog).getByRole('textbox', { name: 'Role' });
    expect(role).toHaveProperty('disabled', true);

    const group = within(dialog).getByLabelText('Group');
    await user.click(group);
    await user.click(await screen.findByRole('option', { name: 'Editors' }));
    expect(role).toHaveProperty('disabled', false);
    await user.click(role);
    expect((await within(dialog).findAllByRole('option')).map((option) => option.textContent)).toEqual(['MEMBER', 'EDITOR', 'ADMIN']);
    await user.click(screen.getByRole('option', { name: 'EDITOR' }));
    expect(role).toHaveProperty('value', 'EDITOR');

    await user.clear(group);
    expect(role).toHaveProperty('value', '');
    expect(role).toHaveProperty('disabled', true);
    await user.click(await screen.findByRole('option', { name: 'Readers' }));
    await user.click(role);
    await waitFor(() => expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual(['MEMBER']));
    expect(callsTo(fetchMock, 'GET', `/api/pim/pimgroups/${READERS}/possibleroles`)).toHaveLength(1);
    expect(callsTo(fetchMock, 'GET', '/api/pim/users/possibleroles')).toHaveLength(0);
  });

  it('deletes the set after Yes and goes to /pim/imagesets; No keeps it', async () => {
    const user = userEvent.setup();
    const fetchMock = imageSetServer((url, init) => {
      if (url.pathname === `/api/pim/documentimageset/${ROOT}` && init?.method === 'DELETE') return new Response(null, { status: 204 });
      if (url.pathname === '/api/pim/documentimageset') return jsonResponse([]);
      return undefined;
    });
    const { router } = renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No' }));
    expect(callsTo(fetchMock, 'DELETE', `/api/pim/documentimageset/${ROOT}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/imagesets'));
    expect(callsTo(fetchMock, 'DELETE', `/api/pim/documentimageset/${ROOT}`)).toHaveLength(1);
  });
});
