import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { setToken } from '../../session/token-store';

const DESCRIPTIONS: Record<string, string> = {
  'page-17.tif': 'Size: 1,457 × 2,083 pixels at 300 dpi (12.3 × 17.6 cm), portrait.\nText: about 22 lines in one column (estimated from the image), not skewed.\nScript: Fraktur (Tesseract, confidence 25.5).\nLanguage: German (13 of 39 words read are common German words).',
  'alice.png': 'Size: 2,488 × 3,507 pixels (the file states no resolution), portrait.\nLanguage: English (48 of 122 words read are common English words).\n\nVision model (llava at gpu:11434):\nA printed page of a novel.',
};
const REFUSAL = 'This file is not an image PIM can describe: send a JPEG, PNG, TIFF or WebP image.';

/** A request the test's server has not answered yet: the test answers it when it wants to. */
interface Held {
  fileName: string;
  answer: () => void;
}

/**
 * The server: each `POST pim/describeimage` is held until the test answers it, with the file's
 * description, or a 415 for a file that is no image.
 */
function describeServer() {
  const held: Held[] = [];
  const fetchMock = stubFetch(
    signedInHandler(['AUTHENTICATED'], async (url, init) => {
      if (url.pathname !== '/api/pim/describeimage' || init?.method !== 'POST') return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
      const file = (init.body as FormData).get('filepond') as File;
      return new Promise<Response>((resolve) => {
        held.push({
          fileName: file.name,
          answer: () =>
            resolve(
              DESCRIPTIONS[file.name]
                ? jsonResponse({ [file.name]: DESCRIPTIONS[file.name] })
                : jsonResponse({ error: 'unsupported_media_type', message: REFUSAL }, 415),
            ),
        });
      });
    }),
  );
  return { fetchMock, held };
}

const image = (name: string, type: string) => new File([new Uint8Array([1, 2, 3])], name, { type });
const cardOf = (name: string) => screen.getByRole('listitem', { name });

beforeEach(() => {
  setToken('tok');
  // jsdom has no object URLs; these stand in for the browser's.
  URL.createObjectURL = vi.fn((file: Blob) => `blob:test/${(file as File).name}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('/pim/imagedescription', () => {
  it('describes the chosen images one after another: Waiting, Uploading, Done with the text beside the thumbnail', async () => {
    // The picker offers images only; a file of another type chosen anyway goes to the server, which says why it refuses it.
    const user = userEvent.setup({ applyAccept: false });
    const { fetchMock, held } = describeServer();
    renderApp('/imagedescription');
    expect(await screen.findByRole('heading', { name: 'Image description' })).toBeTruthy();
    const picker = await screen.findByLabelText('Describe images...');
    expect(picker.getAttribute('accept')).toBe('image/*');
    expect(picker.hasAttribute('multiple')).toBe(true);
    expect(screen.getByRole('button', { name: 'Analyze' }).hasAttribute('disabled')).toBe(true);

    await user.upload(picker, [image('page-17.tif', 'image/tiff'), image('alice.png', 'image/png'), image('notes.txt', 'text/plain')]);
    const analyze = screen.getByRole('button', { name: 'Analyze 3 images' });
    expect(within(cardOf('page-17.tif')).getByRole('img', { name: 'Thumbnail of page-17.tif' }).getAttribute('src')).toBe('blob:test/page-17.tif');
    expect(within(cardOf('alice.png')).getByText('Waiting')).toBeTruthy();

    await user.click(analyze);
    // One request at a time: the first is sent, the others wait, and Analyze stays disabled.
    await waitFor(() => expect(held).toHaveLength(1));
    expect(within(cardOf('page-17.tif')).getByText('Uploading')).toBeTruthy();
    expect(within(cardOf('page-17.tif')).getByLabelText('Describing page-17.tif…')).toBeTruthy();
    expect(within(cardOf('alice.png')).getByText('Waiting')).toBeTruthy();
    expect(screen.getByText('Analyzing image 1 of 3…')).toBeTruthy();
    expect(screen.getAllByRole('button').find((b) => b.textContent?.startsWith('Analyze'))!.hasAttribute('disabled')).toBe(true);

    held[0]!.answer();
    await within(cardOf('page-17.tif')).findByText('Done');
    expect(within(cardOf('page-17.tif')).getByText('Fraktur (Tesseract, confidence 25.5).', { exact: false })).toBeTruthy();
    expect(within(cardOf('page-17.tif')).getByText('Size:')).toBeTruthy();
    await waitFor(() => expect(held).toHaveLength(2));
    expect(held[1]!.fileName).toBe('alice.png');
    expect(within(cardOf('alice.png')).getByText('Uploading')).toBeTruthy();

    held[1]!.answer();
    await within(cardOf('alice.png')).findByText('A printed page of a novel.');
    await waitFor(() => expect(held).toHaveLength(3));
    held[2]!.answer();
    expect(await within(cardOf('notes.txt')).findByText(`Unexpected server response: ${REFUSAL}`)).toBeTruthy();
    expect(within(cardOf('notes.txt')).getByText('Done')).toBeTruthy();

    // All done: nothing waits, so Analyze has nothing to do.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Analyze' }).hasAttribute('disabled')).toBe(true));
    const sent = fetchMock.mock.calls.filter(([input]) => String(input).includes('describeimage'));
    expect(sent).toHaveLength(3);
    for (const [, init] of sent) {
      expect(new Headers(init?.headers).get('Authorization')).toBe('Google tok');
      expect([...(init?.body as FormData).keys()]).toEqual(['filepond']);
    }
  });

  it('sends only the images added since the last run, and lets images be removed before', async () => {
    const user = userEvent.setup();
    const { held } = describeServer();
    renderApp('/imagedescription');
    const picker = await screen.findByLabelText('Describe images...');
    await user.upload(picker, [image('page-17.tif', 'image/tiff'), image('other.png', 'image/png')]);
    await user.click(screen.getByRole('button', { name: 'Remove other.png' }));
    expect(screen.queryByRole('listitem', { name: 'other.png' })).toBeNull();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:test/other.png');

    await user.click(screen.getByRole('button', { name: 'Analyze 1 image' }));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!.answer();
    await within(cardOf('page-17.tif')).findByText('Done');

    await user.upload(screen.getByLabelText('Describe images...'), [image('alice.png', 'image/png')]);
    await user.click(screen.getByRole('button', { name: 'Analyze 1 image' }));
    await waitFor(() => expect(held).toHaveLength(2));
    expect(held.map((h) => h.fileName)).toEqual(['page-17.tif', 'alice.png']);
    held[1]!.answer();
    await within(cardOf('alice.png')).findByText('Done');
    expect(within(cardOf('page-17.tif')).getByText('Done')).toBeTruthy();
  });
});
