import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { imageSetFixture } from '../../test/factories';

const SET = '22222222-2222-4222-8222-222222222222';

const imageSet = imageSetFixture(SET, 'Psalter', { publish: true });

/** The files the browser was asked to save: the name, and the blob URL it came from. */
let saved: { fileName: string; href: string }[] = [];

function server(download: (url: URL) => Response = (url) => new Response(new Blob([url.pathname]))) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === '/api/pim/documentimageset') return jsonResponse([imageSet]);
      if (url.pathname.startsWith(`/api/pim/imageset/${SET}/`)) return download(url);
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

/** Calls to the download endpoints, with the Authorization header each carried. */
function downloadCalls(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ path: new URL(String(input), 'http://localhost').pathname, auth: new Headers(init?.headers).get('Authorization') }))
    .filter((c) => c.path.startsWith('/api/pim/imageset/'));
}

beforeEach(() => {
  saved = [];
  let n = 0;
  // jsdom has no object URLs; these stand in for the browser's.
  URL.createObjectURL = vi.fn(() => `blob:test/${(n += 1)}`);
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ fileName: this.download, href: this.getAttribute('href') ?? '' });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('/pim/imagesets downloads', () => {
  it('the Download modal saves the JSON zip, PAGE zip and zipped images under their names, with the sign-in', async () => {
    const fetchMock = server();
    const { router } = renderApp('/imagesets');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    const modal = await screen.findByRole('dialog', { name: 'Download Psalter' });
    const choices: [string, string, string][] = [
      ['JSON zip', 'get', `${SET}_json.zip`],
      ['PAGE zip', 'page', `${SET}_page.zip`],
      ['Zipped images', 'zippedimages', `${SET}_images.zip`],
    ];
    for (const [label, , fileName] of choices) {
      await userEvent.click(within(modal).getByRole('button', { name: label }));
      await waitFor(() => expect(saved.at(-1)?.fileName).toBe(fileName));
    }
    expect(downloadCalls(fetchMock)).toEqual(choices.map(([, path]) => ({ path: `/api/pim/imageset/${SET}/${path}`, auth: 'Google tok' })));
    expect(saved.map((s) => s.href)).toEqual(['blob:test/1', 'blob:test/2', 'blob:test/3']);
    // Nothing in the actions or the modal counts as a click on the row.
    expect(router.state.location.pathname).toBe('/pim/imagesets');
  });

  it('the PDF link saves {uuid}.pdf', async () => {
    const fetchMock = server();
    const { router } = renderApp('/imagesets');
    await userEvent.click(await screen.findByRole('button', { name: 'PDF' }));
    await waitFor(() => expect(saved).toEqual([{ fileName: `${SET}.pdf`, href: 'blob:test/1' }]));
    expect(downloadCalls(fetchMock)).toEqual([{ path: `/api/pim/imageset/${SET}/pdf`, auth: 'Google tok' }]);
    expect(router.state.location.pathname).toBe('/pim/imagesets');
  });

  it("shows the server's message and saves nothing when a download fails", async () => {
    server(() => jsonResponse({ error: 'not_found', message: 'There is no image set with id x.' }, 404));
    renderApp('/imagesets');
    await userEvent.click(await screen.findByRole('button', { name: 'PDF' }));
    expect(await screen.findByText(`${SET}.pdf could not be downloaded: There is no image set with id x.`)).toBeTruthy();
    expect(saved).toEqual([]);
  });
});
