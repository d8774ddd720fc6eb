import { notifications } from '@mantine/notifications';
import type { PimFieldSet } from '@pim/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fetchedUrls, jsonResponse, renderApp } from '../../test/render';
import {
  CREATE_PATH,
  fieldSetFixture,
  fieldSetServer,
  LIST_PATH,
  NEW_SET,
  pimField,
  SET_A,
  selectValue,
  sentBodies,
  setPath,
  summaryOf,
  updatePath,
} from './fixtures.test-support';

const SAVED_TOAST = 'Fieldset is saved successfully.';
const fieldCard = (number: number) => screen.getByRole('group', { name: `Field ${number}` });
const textbox = (card: HTMLElement, name: string) => within(card).getByRole('textbox', { name });
const fieldLabels = () => screen.getAllByRole('group', { name: /^Field \d+$/ }).map((card) => (textbox(card, 'Label') as HTMLInputElement).value);

/** Answers create with `created`, and GET and update of a saved set with `stored` (update: the answer of `onUpdate`). */
function server(options: { stored?: PimFieldSet[]; created?: PimFieldSet; onUpdate?: (body: unknown) => Response } = {}) {
  const stored = [...(options.stored ?? [])];
  return fieldSetServer((url, init) => {
    if (init?.method === 'POST' && url.pathname === CREATE_PATH && options.created) return jsonResponse(options.created);
    if (url.pathname === LIST_PATH) return jsonResponse(stored.map(summaryOf));
    const set = stored.find((candidate) => url.pathname.startsWith(setPath(candidate.uuid)));
    if (!set) return undefined;
    if (init?.method === 'POST' && url.pathname === updatePath(set.uuid)) return options.onUpdate?.(JSON.parse(String(init.body)));
    if (init?.method === 'DELETE' && url.pathname === setPath(set.uuid)) {
      stored.splice(stored.indexOf(set), 1);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === setPath(set.uuid)) return jsonResponse(set);
    return undefined;
  });
}

async function chooseType(card: HTMLElement, type: string) {
  await userEvent.click(textbox(card, 'Type'));
  await userEvent.click(await screen.findByRole('option', { name: type }));
}

describe('/pim/pimfieldsetedit without uuid: a new set', () => {
  it('starts with the fixed fields uri and Dataset uri: label, name and type read-only, no remove or move', async () => {
    server();
    renderApp('/pimfieldsetedit');
    expect(await screen.findByRole('heading', { name: 'New field set' })).toBeTruthy();
    await screen.findByRole('group', { name: 'Field 2' });
    expect(fieldLabels()).toEqual(['uri', 'Dataset uri']);
    for (const [number, name] of [[1, 'uri'], [2, 'datasetUri']] as const) {
      const card = fieldCard(number);
      expect(textbox(card, 'Name')).toHaveProperty('value', name);
      for (const input of ['Label', 'Name', 'Type']) expect(textbox(card, input)).toHaveProperty('readOnly', true);
      expect(textbox(card, 'Description')).toHaveProperty('readOnly', false);
      expect(within(card).queryAllByRole('button')).toEqual([]);
      expect(within(card).getByText('Fixed')).toBeTruthy();
    }
    expect(screen.getByRole('checkbox', { name: 'Public' })).toHaveProperty('checked', false);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('creates the set with a select field and its values, toasts, and puts the new uuid in the address', async () => {
    const user = userEvent.setup();
    const show = vi.spyOn(notifications, 'show');
    const saved = fieldSetFixture(NEW_SET, 'Charter dating', [
      pimField('Hand', 'hand', 'select', { copyValue: true, possibleValues: [selectValue('A'), selectValue('B')] }),
    ]);
    const fetchMock = server({ stored: [saved], created: saved });
    const { router } = renderApp('/pimfieldsetedit');

    await user.type(await screen.findByRole('textbox', { name: 'Field set name' }), 'Charter dating');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const card = fieldCard(3);
    expect(document.activeElement).toBe(textbox(card, 'Label'));
    await user.type(textbox(card, 'Label'), 'Hand');
    await user.type(textbox(card, 'Name'), 'hand');
    await chooseType(card, 'Select');
    await user.type(textbox(card, 'Value 1'), 'A{Enter}');
    // Enter in the last value adds the next one and moves there, without saving.
    expect(document.activeElement).toBe(textbox(card, 'Value 2'));
    await user.keyboard('B');
    await user.click(within(card).getByRole('checkbox', { name: 'Copy value' }));
    expect(sentBodies(fetchMock, 'POST', CREATE_PATH)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.search).toBe(`?uuid=${NEW_SET}`));
    const fixed = { description: '', type: 'text', copyValue: false, possibleValues: [] };
    expect(sentBodies(fetchMock, 'POST', CREATE_PATH)).toEqual([
      {
        name: 'Charter dating',
        publicPimFieldSet: false,
        fields: [
          { label: 'uri', name: 'uri', ...fixed },
          { label: 'Dataset uri', name: 'datasetUri', ...fixed },
          { label: 'Hand', name: 'hand', description: '', type: 'select', copyValue: true, possibleValues: [{ value: 'A' }, { value: 'B' }] },
        ],
      },
    ]);
    expect(await screen.findByText(SAVED_TOAST)).toBeTruthy();
    expect(show).toHaveBeenCalledWith({ color: 'green', message: SAVED_TOAST });
    expect(await screen.findByRole('heading', { name: 'Field set' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('shows the messages of the schema at the fields and sends nothing while the set is invalid', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    renderApp('/pimfieldsetedit');
    const name = await screen.findByRole('textbox', { name: 'Field set name' });
    expect(name.getAttribute('maxlength')).toBe('255');
    // Typing stops at maxlength; a longer text can still arrive (pasted, or stored before the limit).
    fireEvent.change(name, { target: { value: 'x'.repeat(256) } });
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await chooseType(fieldCard(3), 'Select');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('A field set name can be at most 255 characters long.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    const card = fieldCard(3);
    expect(within(card).getByText('Give every field a label.')).toBeTruthy();
    expect(within(card).getByText('Give every field a name.')).toBeTruthy();
    expect(within(card).getByText('A select field cannot have an empty value.')).toBeTruthy();
    expect(screen.getByText('The field set cannot be saved yet: see the messages at the fields.')).toBeTruthy();
    expect(fetchedUrls(fetchMock).filter((url) => url.includes('pimfieldset'))).toEqual([]);

    // The messages follow the edits: a fixed input loses its message at once.
    await user.type(textbox(card, 'Label'), 'Hand');
    expect(within(card).queryByText('Give every field a label.')).toBeNull();
  });
});

describe('/pim/pimfieldsetedit?uuid=: a saved set', () => {
  const hand = () => pimField('Hand', 'hand', 'select', { possibleValues: [selectValue('A')] });

  it('posts the whole set to /update, keeping the uuids of its fields and values', async () => {
    const user = userEvent.setup();
    const set = fieldSetFixture(SET_A, 'Charter dating', [hand(), pimField('Notes', 'notes', 'notes')]);
    const fetchMock = server({ stored: [set], onUpdate: () => jsonResponse({ ...set, name: 'Charter dating II' }) });
    renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    const name = await screen.findByRole('textbox', { name: 'Field set name' });
    expect(screen.getByText('Owner: Ada Researcher')).toBeTruthy();
    await user.type(name, ' II');
    await user.click(screen.getByRole('checkbox', { name: 'Public' }));
    await user.click(within(fieldCard(3)).getByRole('button', { name: 'Add value' }));
    await user.keyboard('B');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(SAVED_TOAST)).toBeTruthy();
    const [uri, datasetUri, handField, notes] = set.fields as [PimFieldSet['fields'][number], ...PimFieldSet['fields']];
    const asSent = (field: typeof uri) => ({
      uuid: field.uuid,
      label: field.label,
      name: field.name,
      description: '',
      type: field.type,
      copyValue: false,
      possibleValues: field.possibleValues.map(({ uuid, value }) => ({ uuid, value })),
    });
    expect(sentBodies(fetchMock, 'POST', updatePath(SET_A))).toEqual([
      {
        uuid: SET_A,
        name: 'Charter dating II',
        publicPimFieldSet: true,
        fields: [
          asSent(uri),
          asSent(datasetUri!),
          { ...asSent(handField!), possibleValues: [...asSent(handField!).possibleValues, { value: 'B' }] },
          asSent(notes!),
        ],
      },
    ]);
    expect(sentBodies(fetchMock, 'POST', CREATE_PATH)).toEqual([]);
  });

  it('moves and removes fields, never into or out of the first two places', async () => {
    const user = userEvent.setup();
    const set = fieldSetFixture(SET_A, 'Charter dating', [hand(), pimField('Dated', 'dated', 'date'), pimField('Notes', 'notes', 'notes')]);
    const fetchMock = server({ stored: [set], onUpdate: () => jsonResponse(set) });
    renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    await screen.findByRole('group', { name: 'Field 5' });
    expect(within(fieldCard(3)).getByRole('button', { name: 'Move field 3 up' })).toHaveProperty('disabled', true);
    expect(within(fieldCard(5)).getByRole('button', { name: 'Move field 5 down' })).toHaveProperty('disabled', true);

    await user.click(within(fieldCard(5)).getByRole('button', { name: 'Move field 5 up' }));
    expect(fieldLabels()).toEqual(['uri', 'Dataset uri', 'Hand', 'Notes', 'Dated']);
    await user.click(within(fieldCard(3)).getByRole('button', { name: 'Move field 3 down' }));
    expect(fieldLabels()).toEqual(['uri', 'Dataset uri', 'Notes', 'Hand', 'Dated']);
    await user.click(within(fieldCard(5)).getByRole('button', { name: 'Remove field 5' }));
    expect(fieldLabels()).toEqual(['uri', 'Dataset uri', 'Notes', 'Hand']);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(SAVED_TOAST);
    const [body] = sentBodies(fetchMock, 'POST', updatePath(SET_A)) as { fields: { label: string }[] }[];
    expect(body?.fields.map((field) => field.label)).toEqual(['uri', 'Dataset uri', 'Notes', 'Hand']);
  });

  it('reloads the set from the server when the save fails', async () => {
    const user = userEvent.setup();
    const set = fieldSetFixture(SET_A, 'Charter dating', [hand()]);
    const fetchMock = server({
      stored: [set],
      onUpdate: () => jsonResponse({ error: 'conflict', message: 'Two fields are named hand.' }, 409),
    });
    renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    const name = await screen.findByRole('textbox', { name: 'Field set name' });
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Unexpected server response: Two fields are named hand.')).toBeTruthy();
    expect(await screen.findByText('Your changes were not saved. The field set has been reloaded from the server.')).toBeTruthy();
    expect(sentBodies(fetchMock, 'GET', setPath(SET_A))).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: 'Field set name' })).toHaveProperty('value', 'Charter dating');
    expect(screen.queryByText(SAVED_TOAST)).toBeNull();
  });

  it('shows a set the user may not change read-only, without Save, Delete or field buttons', async () => {
    const set = fieldSetFixture(SET_A, 'Script survey', [hand()], { editable: false, owner: { uuid: NEW_SET, name: 'Bea Palaeographer' } });
    server({ stored: [set] });
    renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    expect(await screen.findByText('You can use this field set but not change it: only its owner or an admin can.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Field set name' })).toHaveProperty('readOnly', true);
    expect(screen.getByRole('checkbox', { name: 'Public' })).toHaveProperty('disabled', true);
    const card = fieldCard(3);
    for (const input of ['Label', 'Name', 'Type', 'Description', 'Value 1']) expect(textbox(card, input)).toHaveProperty('readOnly', true);
    expect(within(card).getByRole('checkbox', { name: 'Copy value' })).toHaveProperty('disabled', true);
    expect(screen.queryAllByRole('button', { name: /Save|Delete|Add field|Add value|Remove|Move/ })).toEqual([]);
  });

  it('deletes the set after a warning that its stored values go too, then shows the list', async () => {
    const user = userEvent.setup();
    const fetchMock = server({ stored: [fieldSetFixture(SET_A, 'Charter dating')] });
    const { router } = renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete field set' });
    expect(within(dialog).getByText(/Every value stored with this set is deleted too/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/pimfieldsets'));
    expect(await screen.findByText('No records to show')).toBeTruthy();
    expect(sentBodies(fetchMock, 'DELETE', setPath(SET_A))).toHaveLength(1);
    // The deleted set is not asked for again (that would answer 404 with an error toast).
    expect(sentBodies(fetchMock, 'GET', setPath(SET_A))).toHaveLength(1);
  });

  it('says so, with a way back to the list, when the set cannot be loaded', async () => {
    server();
    const { router } = renderApp(`/pimfieldsetedit?uuid=${SET_A}`);
    expect(await screen.findByText('This field set could not be loaded')).toBeTruthy();
    const back = screen.getAllByRole('link', { name: 'Back to the field sets' });
    await userEvent.click(back.at(-1) as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/pimfieldsets'));
  });
});
