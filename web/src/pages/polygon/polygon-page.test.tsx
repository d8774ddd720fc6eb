import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { documentImageFixture } from '../../test/factories';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';

const IMAGE = '55555555-5555-4555-8555-555555555555';

describe('/pim/polygon', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:page');
    URL.revokeObjectURL = vi.fn();
  });

  it("says Expected property 'uuid' to have a value without a uuid", async () => {
    renderApp('/polygon');
    expect(await screen.findByText("Expected property 'uuid' to have a value")).toBeTruthy();
  });

  it('opens the drawing tool on the image, with its saved shapes and a way back', async () => {
    setToken('tok');
    stubFetch(
      signedInHandler(['AUTHENTICATED'], (url) => {
        if (url.pathname === `/api/pim/documentimage/${IMAGE}`) return jsonResponse(documentImageFixture(IMAGE, 'f. 2v'));
        if (url.pathname === `/api/pim/documentimage/${IMAGE}/drawing`) {
          return jsonResponse({
            shapes: [{ id: '66666666-6666-4666-8666-666666666666', kind: 'polygon', label: 'decoration', points: [[1, 1], [90, 1], [90, 90]] }],
            updated: '2024-12-01T00:00:00.000Z',
          });
        }
        if (url.pathname.startsWith(`/iiif/3/${IMAGE}/`)) return new Response(new Blob(['jpeg']));
        return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
      }),
    );
    renderApp(`/polygon?uuid=${IMAGE}`);
    expect(await screen.findByRole('heading', { name: 'Polygons and lines: f. 2v' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Polygon 1: Decoration' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the image' }).getAttribute('href')).toBe(`/pim/documentimage?uuid=${IMAGE}`);
  });
});
