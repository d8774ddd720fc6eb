import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { documentImageFixture } from '../../test/factories';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';

vi.mock('openseadragon', () => ({ default: vi.fn(() => ({ destroy: vi.fn(), viewport: {}, addHandler: vi.fn() })) }));

const IMAGE = '55555555-5555-4555-8555-555555555555';

describe('the image tab of /pim/documentimage', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:page');
    URL.revokeObjectURL = vi.fn();
    setToken('tok');
    stubFetch(
      signedInHandler(['AUTHENTICATED'], (url) => {
        if (url.pathname === `/api/pim/documentimage/${IMAGE}`) return jsonResponse(documentImageFixture(IMAGE, 'f. 1r'));
        if (url.pathname === `/api/pim/documentimage/${IMAGE}/drawing`) return jsonResponse({ shapes: [], updated: null });
        if (url.pathname === `/iiif/3/${IMAGE}/info.json`) return jsonResponse({ id: `http://localhost/iiif/3/${IMAGE}`, width: 2000, height: 3000 });
        if (url.pathname.startsWith(`/iiif/3/${IMAGE}/`)) return new Response(new Blob(['jpeg']));
        return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
      }),
    );
  });

  it('switches between the viewer and the drawing tool, and keeps the choice in the address', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);
    expect(await screen.findByRole('button', { name: 'Zoom in' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Drawing on f. 1r' })).toBeNull();

    await user.click(screen.getByText('Draw'));
    expect(await screen.findByRole('group', { name: 'Drawing on f. 1r' })).toBeTruthy();
    expect(router.state.location.search).toBe(`?uuid=${IMAGE}&view=draw`);
    expect(screen.getByTestId('image-viewer').closest('[style*="display: none"]')).toBeTruthy();

    await user.click(screen.getByText('View'));
    expect(router.state.location.search).toBe(`?uuid=${IMAGE}`);
    expect(screen.getByTestId('drawing-surface').closest('[style*="display: none"]')).toBeTruthy();
  });

  it('opens on the drawing tool when the address says view=draw', async () => {
    renderApp(`/documentimage?uuid=${IMAGE}&view=draw`);
    expect(await screen.findByRole('group', { name: 'Drawing on f. 1r' })).toBeTruthy();
    expect(screen.queryByTestId('image-viewer')).toBeNull();
  });
});
