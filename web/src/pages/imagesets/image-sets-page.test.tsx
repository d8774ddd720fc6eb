import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { imageSetFixture } from '../../test/factories';

const SET_A = '22222222-2222-4222-8222-222222222222';
const SET_B = '33333333-3333-4333-8333-333333333333';
const NEW_SET = '44444444-4444-4444-8444-444444444444';

function imageSet(uuid: string, name: string) {
  return imageSetFixture(uuid, name, { longName: `${name} (long)`, publish: true });
}

function server() {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url, init) => {
      if (url.pathname === '/api/pim/documentimageset') {
        return jsonResponse([imageSet(SET_A, 'Psalter'), imageSet(SET_B, 'Book of hours')]);
      }
      if (url.pathname === '/api/pim/documentimageset/create' && init?.method === 'POST') {
        return jsonResponse({ uuid: NEW_SET });
      }
      const uuid = url.pathname.split('/').at(-1) ?? '';
      return jsonResponse(imageSet(uuid, uuid === NEW_SET ? 'Charters' : 'Psalter'));
    }),
  );
}

describe('/pim/imagesets', () => {
  it('lists the image sets with the default hidden columns hidden', async () => {
    const fetchMock = server();
    renderApp('/imagesets');
    const table = await screen.findByRole('table', { name: 'Imagesets' });
    expect(await within(table).findByText('Psalter')).toBeTruthy();
    const headers = within(table.querySelector('thead tr') as HTMLElement).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['imageset', 'uuid', 'longName', 'prettyName', 'Actions']);
    expect(fetchedUrls(fetchMock)).toContain('/api/pim/documentimageset?onlyOwnData=false');
  });

  it("offers 'Analyze manually' with the set's manifest as uri", async () => {
    server();
    renderApp('/imagesets');
    const links = await screen.findAllByRole('link', { name: 'Analyze manually' });
    const manifest = `http://localhost/api/pim/imageset/${SET_A}/manifest`;
    expect(links[0]?.getAttribute('href')).toBe(`/pim/analyzeimagemanualfieldset?uri=${encodeURIComponent(manifest)}`);
  });

  it("reloads with onlyOwnData=true when 'Own data only' is ticked", async () => {
    const fetchMock = server();
    renderApp('/imagesets');
    await screen.findByText('Psalter');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Own data only' }));
    await waitFor(() => expect(fetchedUrls(fetchMock)).toContain('/api/pim/documentimageset?onlyOwnData=true'));
  });

  it('opens /pim/imageset?uuid= on a row click', async () => {
    server();
    const { router } = renderApp('/imagesets');
    await userEvent.click(await screen.findByText('Book of hours'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/imageset?uuid=${SET_B}`));
    expect(await screen.findByRole('heading', { name: 'Psalter' })).toBeTruthy();
  });

  it('creates an image set and opens it; an empty name is refused before sending', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    const { router } = renderApp('/imagesets');
    await user.click(await screen.findByRole('button', { name: 'New imageset' }));
    const dialog = await screen.findByRole('dialog', { name: 'New imageset' });

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Enter a name for the image set.')).toBeTruthy();
    expect(fetchedUrls(fetchMock)).not.toContain('/api/pim/documentimageset/create');

    await user.type(within(dialog).getByLabelText('Name imageset'), 'Charters');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?uuid=${NEW_SET}`));
    const post = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/create'));
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ imageset: 'Charters' });
    expect(await screen.findByRole('heading', { name: 'Charters' })).toBeTruthy();
  });

  it('asks a signed-out visitor to log in instead of calling the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    renderApp('/imagesets');
    expect(await screen.findByText('You need to log in to see this page.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('/pim/imageset', () => {
  it("says Expected property 'uuid' to have a value without a uuid", async () => {
    renderApp('/imageset');
    expect(await screen.findByText("Expected property 'uuid' to have a value")).toBeTruthy();
  });
});
