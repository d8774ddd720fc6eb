import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fetchedUrls, jsonResponse, renderApp, stubFetch } from '../../test/render';
import { fieldSetFixture, fieldSetServer, LIST_PATH, pimField, SET_A, SET_B, setPath, summaryOf } from './fixtures.test-support';

const dating = fieldSetFixture(SET_A, 'Charter dating', [pimField('Hand', 'hand', 'text')], { publicPimFieldSet: true });
const scripts = fieldSetFixture(SET_B, 'Script survey', [], { owner: { uuid: SET_A, name: 'Bea Palaeographer' }, editable: false });

function server() {
  return fieldSetServer((url) => {
    if (url.pathname === LIST_PATH) return jsonResponse([summaryOf(dating), summaryOf(scripts)]);
    if (url.pathname === setPath(SET_B)) return jsonResponse(scripts);
    return undefined;
  });
}

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('/pim/pimfieldsets', () => {
  it('lists the field sets with name, public, number of fields, owner and update time', async () => {
    const fetchMock = server();
    renderApp('/pimfieldsets');
    expect(await screen.findByRole('heading', { name: 'Field sets' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Field sets' });
    const row = (await within(table).findByText('Charter dating')).closest('tr') as HTMLElement;
    expect(cellTexts(row)).toEqual(['Charter dating', 'Yes', '3', 'Ada Researcher', '2024-03-02 11:30']);
    const other = within(table).getByText('Script survey').closest('tr') as HTMLElement;
    expect(cellTexts(other)).toEqual(['Script survey', 'No', '2', 'Bea Palaeographer', '2024-03-02 11:30']);
    expect(fetchedUrls(fetchMock)).toContain(`${LIST_PATH}?onlyOwnData=false`);
  });

  it("reloads with onlyOwnData=true when 'Own data only' is ticked", async () => {
    const fetchMock = server();
    renderApp('/pimfieldsets');
    await screen.findByText('Charter dating');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Own data only' }));
    await waitFor(() => expect(fetchedUrls(fetchMock)).toContain(`${LIST_PATH}?onlyOwnData=true`));
  });

  it('opens /pim/pimfieldsetedit?uuid= on a row click', async () => {
    server();
    const { router } = renderApp('/pimfieldsets');
    await userEvent.click(await screen.findByText('Script survey'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/pimfieldsetedit?uuid=${SET_B}`));
    expect(await screen.findByDisplayValue('Script survey')).toBeTruthy();
  });

  it('goes to an empty, pre-filled form with New field set', async () => {
    server();
    const { router } = renderApp('/pimfieldsets');
    await userEvent.click(await screen.findByRole('link', { name: 'New field set' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/pim/pimfieldsetedit'));
    expect(await screen.findByRole('heading', { name: 'New field set' })).toBeTruthy();
  });

  it('asks a signed-out visitor to log in instead of calling the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    renderApp('/pimfieldsets');
    expect(await screen.findByText('You need to log in to see this page.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
