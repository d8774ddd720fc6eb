import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { documentImageFixture } from '../../test/factories';

vi.mock('openseadragon', () => ({ default: vi.fn(() => ({ destroy: vi.fn(), viewport: {}, addHandler: vi.fn() })) }));

const IMAGE = '55555555-5555-4555-8555-555555555555';
const SET = '22222222-2222-4222-8222-222222222222';

const image = documentImageFixture(IMAGE, 'f. 1r', { types: ['PAGE', 'ALTO'], htrText: 'Zwoͤlftes Stuͤck' });

describe('/pim/documentimage', () => {
  it("says Expected property 'uuid' to have a value without a uuid", async () => {
    renderApp('/documentimage');
    expect(await screen.findByText("Expected property 'uuid' to have a value")).toBeTruthy();
  });

  it('shows the label, the fields of the definitions, and the sets using the image', async () => {
    const user = userEvent.setup();
    setToken('tok');
    stubFetch(
      signedInHandler(['AUTHENTICATED'], (url) => {
        if (url.pathname === `/api/pim/documentimage/${IMAGE}`) return jsonResponse(image);
        if (url.pathname === `/api/pim/documentimage/${IMAGE}/documentimagesets`) return jsonResponse([{ uuid: SET, name: 'Psalter' }]);
        if (url.pathname === `/api/pim/documentimage/${IMAGE}/transcriptions`) return jsonResponse([]);
        if (url.pathname === `/api/pim/documentimage/${IMAGE}/groundtruth`) return jsonResponse([]);
        if (url.pathname === '/api/pim/documentimage/getfielddefinition') {
          return jsonResponse([
            { name: 'label', type: 'string' },
            { name: 'width', type: 'number' },
            { name: 'types', type: 'string' },
            { name: 'uploader', type: 'string' },
            { name: 'htrText', type: 'string' },
          ]);
        }
        return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
      }),
    );
    renderApp(`/documentimage?uuid=${IMAGE}&documentImageSetUuid=${SET}`);
    expect(await screen.findByRole('heading', { name: 'f. 1r' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Fields' }));
    const fields = await screen.findByRole('table', { name: 'Fields of the image' });
    expect(Array.from(fields.querySelectorAll('tr')).map((row) => row.textContent)).toEqual([
      'labelf. 1r',
      'width2000',
      'typesPAGE, ALTO',
      'uploaderAda Researcher',
      'htrTextZwoͤlftes Stuͤck',
    ]);
    // A transcription's text is manuscript text: set in the face that has its characters.
    const htr = Array.from(fields.querySelectorAll('tr')).find((row) => row.textContent?.startsWith('htrText'));
    expect(htr?.querySelector('td')?.style.fontFamily).toMatch(/^"?Junicode/);
    expect((await screen.findByRole('link', { name: 'Psalter' })).getAttribute('href')).toBe(`/pim/imageset?uuid=${SET}`);
    expect(screen.getByRole('link', { name: 'Open in the viewer' }).getAttribute('href')).toBe(`/pim/analyzeimage?id=${IMAGE}`);
  });
});
