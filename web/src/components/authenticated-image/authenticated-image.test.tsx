import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { renderPage, signedInHandler, stubFetch } from '../../test/render';
import { AuthenticatedImage } from './authenticated-image';
import { apiImageUrl } from './use-authenticated-image';
import { stubObjectUrls } from './object-urls.test-support';

stubObjectUrls('blob:picture');

const LINE_IMAGE = 'pim/pimsimpletextline/e0000000-0000-4000-8000-000000000001/image';
const FOREIGN = 'https://iiif.example.org/psalter/f1r/full/200,/0/default.jpg';

/** A signed-in user; our images and another server's answer bytes, a missing one 404. Each image request is kept with its Authorization. */
function imageServer() {
  setToken('tok');
  const asked: { url: string; authorization: string | null }[] = [];
  stubFetch(
    signedInHandler(['AUTHENTICATED'], (url, init) => {
      asked.push({ url: url.href, authorization: new Headers(init?.headers).get('Authorization') });
      if (url.pathname.endsWith('/missing')) return new Response('gone', { status: 404 });
      return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
    }),
  );
  return asked;
}

function show(path: string | undefined) {
  return renderPage(<AuthenticatedImage path={path} alt="f. 1r" fallback="No picture" width={120} height={160} />);
}

describe('apiImageUrl', () => {
  it('puts an API path below the API base and leaves an absolute or root-relative address as it is', () => {
    expect(apiImageUrl(LINE_IMAGE)).toBe(`/api/${LINE_IMAGE}`);
    expect(apiImageUrl(FOREIGN)).toBe(FOREIGN);
    expect(apiImageUrl('/iiif/3/abc/full/max/0/default.jpg')).toBe('/iiif/3/abc/full/max/0/default.jpg');
  });
});

describe('AuthenticatedImage', () => {
  it('fetches an API path with the sign-in and shows the bytes, released when it goes', async () => {
    const asked = imageServer();
    const view = show(LINE_IMAGE);
    expect((await screen.findByRole('img', { name: 'f. 1r' })).getAttribute('src')).toBe('blob:picture');
    expect(asked).toEqual([{ url: `http://localhost/api/${LINE_IMAGE}`, authorization: 'Google tok' }]);
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    view.unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:picture');
  });

  it('sends no token to another server', async () => {
    const asked = imageServer();
    show(FOREIGN);
    await screen.findByRole('img', { name: 'f. 1r' });
    expect(asked).toEqual([{ url: FOREIGN, authorization: null }]);
  });

  it('says the fallback when the image cannot be fetched, or there is none, and shows no broken picture', async () => {
    const asked = imageServer();
    const view = show('pim/documentimage/missing');
    expect(await screen.findByText('No picture')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    view.unmount();
    asked.length = 0;
    show(undefined);
    expect(screen.getByText('No picture')).toBeTruthy();
    expect(asked).toEqual([]);
  });
});

describe('AuthenticatedImage far from the screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for nothing until it comes near', async () => {
    let reveal: (() => void) | null = null;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {}
        observe() {
          reveal = () => this.callback([{ isIntersecting: true }]);
        }
        disconnect() {}
      },
    );
    const asked = imageServer();
    show(LINE_IMAGE);
    expect(reveal).not.toBeNull();
    expect(asked).toEqual([]);
    act(() => reveal!());
    expect((await screen.findByRole('img', { name: 'f. 1r' })).getAttribute('src')).toBe('blob:picture');
    expect(asked).toHaveLength(1);
  });
});
