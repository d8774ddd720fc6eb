import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';

const osd = vi.hoisted(() => {
  const viewport = { zoomBy: vi.fn(), applyConstraints: vi.fn(), goHome: vi.fn() };
  const destroy = vi.fn();
  return { viewport, destroy, create: vi.fn(() => ({ viewport, destroy, addHandler: vi.fn() })) };
});
vi.mock('openseadragon', () => ({ default: osd.create }));

const IMAGE = '55555555-5555-4555-8555-555555555555';
const INFO = { '@context': 'http://iiif.io/api/image/3/context.json', id: `${window.location.origin}/iiif/3/${IMAGE}`, type: 'ImageService3', width: 2000, height: 3000 };
const FOREIGN_SERVICE = 'https://iiif.example.org/iiif/page1';
const MANIFEST = `${window.location.origin}/api/pim/imageset/x/manifest`;

function server(manifest: unknown) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === `/iiif/3/${IMAGE}/info.json`) return jsonResponse(INFO);
      if (url.pathname === '/api/pim/imageset/x/manifest') return jsonResponse(manifest);
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

const withCanvas = {
  type: 'Manifest',
  items: [{ type: 'Canvas', items: [{ type: 'AnnotationPage', items: [{ type: 'Annotation', body: { service: [{ id: INFO.id, type: 'ImageService3' }] } }] }] }],
};

describe('/pim/analyzeimage', () => {
  beforeEach(() => {
    osd.create.mockClear();
    osd.destroy.mockClear();
    osd.viewport.zoomBy.mockClear();
  });

  it('without id or uri explains the screen and opens the image chosen by set and image', async () => {
    const user = userEvent.setup();
    const SET = '22222222-2222-4222-8222-222222222222';
    setToken('tok');
    stubFetch(
      signedInHandler(['AUTHENTICATED'], (url) => {
        if (url.pathname === '/api/pim/documentimageset/autocomplete') return jsonResponse({ results: [{ uuid: SET, name: 'Psalter' }], pageSize: 20 });
        if (url.pathname === '/api/pim/documentimage/autocomplete' && url.searchParams.get('setUuid') === SET) {
          return jsonResponse({ results: [{ uuid: IMAGE, name: 'f. 1r' }], pageSize: 20 });
        }
        if (url.pathname === `/iiif/3/${IMAGE}/info.json`) return jsonResponse(INFO);
        return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
      }),
    );
    const { router } = renderApp('/analyzeimage');
    expect(await screen.findByRole('heading', { name: 'Analyze Image' })).toBeTruthy();
    expect(screen.getByText(/The viewer shows one image large/)).toBeTruthy();
    expect(screen.queryByText(/Expected property/)).toBeNull();
    const open = await screen.findByRole('button', { name: 'Open in the viewer' });
    expect(open).toHaveProperty('disabled', true);

    await user.click(screen.getByLabelText('Imageset'));
    await user.click(await screen.findByRole('option', { name: 'Psalter' }));
    await user.click(screen.getByLabelText('Image'));
    await user.click(await screen.findByRole('option', { name: 'f. 1r' }));
    await user.click(open);
    expect(router.state.location.search).toBe(`?id=${IMAGE}`);
    await waitFor(() => expect(osd.create).toHaveBeenCalledWith(expect.objectContaining({ tileSources: INFO })));
  });

  it('without id or uri also opens a IIIF address typed in', async () => {
    const user = userEvent.setup();
    server(withCanvas);
    const { router } = renderApp('/analyzeimage');
    await user.type(await screen.findByLabelText('IIIF manifest or image address'), MANIFEST);
    await user.click(screen.getByRole('button', { name: 'Open this address' }));
    expect(new URLSearchParams(router.state.location.search).get('uri')).toBe(MANIFEST);
    await waitFor(() => expect(osd.create).toHaveBeenCalledTimes(1));
  });

  it("says 'Manifest does not contain any canvases.' for an empty manifest", async () => {
    server({ type: 'Manifest', items: [] });
    renderApp(`/analyzeimage?uri=${encodeURIComponent(MANIFEST)}`);
    expect(await screen.findByText('Manifest does not contain any canvases.')).toBeTruthy();
  });

  it('shows the message of a reply carrying code and message', async () => {
    server({ code: 404, message: 'No such image set.' });
    renderApp(`/analyzeimage?uri=${encodeURIComponent(MANIFEST)}`);
    expect(await screen.findByText('An error has occurred on the server side.: No such image set.')).toBeTruthy();
  });

  it("views the first canvas's image service with the token, once, and zooms with the buttons", async () => {
    const user = userEvent.setup();
    const fetchMock = server(withCanvas);
    const { unmount } = renderApp(`/analyzeimage?uri=${encodeURIComponent(MANIFEST)}`);
    await waitFor(() => expect(osd.create).toHaveBeenCalledTimes(1));
    expect(osd.create).toHaveBeenCalledWith(
      expect.objectContaining({ tileSources: INFO, loadTilesWithAjax: true, ajaxHeaders: { Authorization: 'Google tok' } }),
    );
    const infoCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/info.json'));
    expect(new Headers(infoCall?.[1]?.headers).get('Authorization')).toBe('Google tok');

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(osd.create).toHaveBeenCalledTimes(1);
    expect(osd.viewport.zoomBy).toHaveBeenCalledWith(1.5);
    unmount();
    expect(osd.destroy).toHaveBeenCalledTimes(1);
  });

  it('sends no token to another server', async () => {
    setToken('tok');
    const fetchMock = stubFetch(
      signedInHandler(['AUTHENTICATED'], (url) =>
        jsonResponse(url.pathname.endsWith('info.json') ? INFO : JSON.parse(JSON.stringify(withCanvas).replace(INFO.id, FOREIGN_SERVICE))),
      ),
    );
    renderApp(`/analyzeimage?uri=${encodeURIComponent('https://iiif.example.org/manifest.json')}`);
    await waitFor(() => expect(osd.create).toHaveBeenCalledWith(expect.objectContaining({ ajaxHeaders: {} })));
    const foreign = fetchMock.mock.calls.filter(([input]) => String(input).startsWith('https://iiif.example.org/'));
    expect(foreign.map(([input]) => String(input))).toEqual(['https://iiif.example.org/manifest.json', `${FOREIGN_SERVICE}/info.json`]);
    expect(foreign.every(([, init]) => new Headers(init?.headers).get('Authorization') === null)).toBe(true);
  });

  it('views an image by id over its info.json', async () => {
    server(null);
    renderApp(`/analyzeimage?id=${IMAGE}`);
    await waitFor(() => expect(osd.create).toHaveBeenCalledWith(expect.objectContaining({ tileSources: INFO })));
  });
});
