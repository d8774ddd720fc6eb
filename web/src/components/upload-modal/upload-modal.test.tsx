import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChangeEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../../app/token-store';
import { jsonResponse, renderPage, signedInHandler, stubFetch } from '../../test/render';
import { UploadModal } from './upload-modal';

// FilePond draws its own drop area with browser APIs jsdom lacks; here it is the file input it
// wraps, reporting the chosen files the way FilePond's onupdatefiles does.
vi.mock('react-filepond', () => ({
  registerPlugin: () => undefined,
  FilePond: ({ onupdatefiles }: { onupdatefiles: (files: unknown[]) => void }) => (
    <input
      type="file"
      multiple
      aria-label="Choose files"
      onChange={(event: ChangeEvent<HTMLInputElement>) =>
        onupdatefiles(Array.from(event.currentTarget.files ?? []).map((file, i) => ({ id: `f${i}`, file, status: 2 })))
      }
    />
  ),
}));

const SET = '22222222-2222-4222-8222-222222222222';

function deferred() {
  let resolve: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

const result = (fileName: string) => ({ kind: 'image', fileName, documentImages: [], transcriptions: [], message: `${fileName} added` });

function rowOf(name: string): HTMLElement {
  return screen.getByText(name).closest('tr') as HTMLElement;
}

describe('UploadModal', () => {
  it('uploads one file at a time in order: Waiting, Uploading, Done, or the error text', async () => {
    const user = userEvent.setup();
    setToken('tok');
    const answers = [deferred(), deferred(), deferred()];
    let call = 0;
    const fetchMock = stubFetch(signedInHandler(['AUTHENTICATED'], () => (answers[call++] as ReturnType<typeof deferred>).promise));
    const uploads = () => fetchMock.mock.calls.filter(([input]) => String(input).includes('/postfile'));
    const onUploaded = vi.fn();
    const onClose = vi.fn();
    renderPage(<UploadModal opened setUuid={SET} setName="Psalter" onClose={onClose} onUploaded={onUploaded} />);

    const files = ['a.jpg', 'b.pdf', 'c.xml'].map((name) => new File(['x'], name));
    await user.upload(screen.getByLabelText('Choose files'), files);
    for (const name of ['a.jpg', 'b.pdf', 'c.xml']) expect(within(rowOf(name)).getByText('Waiting')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(within(rowOf('a.jpg')).getByText('Uploading')).toBeTruthy());
    expect(within(rowOf('b.pdf')).getByText('Waiting')).toBeTruthy();
    expect(uploads()).toHaveLength(1);

    // While uploading the modal stays: Escape does nothing and its close button is disabled.
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('disabled', true);

    answers[0]?.resolve(jsonResponse(result('a.jpg')));
    await waitFor(() => expect(within(rowOf('b.pdf')).getByText('Uploading')).toBeTruthy());
    expect(within(rowOf('a.jpg')).getByText('Done')).toBeTruthy();
    expect(within(rowOf('a.jpg')).getByText('a.jpg added')).toBeTruthy();

    answers[1]?.resolve(jsonResponse({ error: 'unsupported_media_type', message: 'The PDF is encrypted.' }, 415));
    await waitFor(() => expect(within(rowOf('c.xml')).getByText('Uploading')).toBeTruthy());
    expect(within(rowOf('b.pdf')).getByText('Done')).toBeTruthy();
    expect(within(rowOf('b.pdf')).getByText('The PDF is encrypted.')).toBeTruthy();

    answers[2]?.resolve(jsonResponse(result('c.xml')));
    await waitFor(() => expect(within(rowOf('c.xml')).getByText('Done')).toBeTruthy());
    expect(onUploaded).toHaveBeenCalledTimes(1);

    // Each request: the one part `filepond`, to this set, with the Authorization header.
    const sent = uploads().map(([input, init]) => ({
      url: new URL(String(input), 'http://localhost'),
      body: init?.body as FormData,
      auth: new Headers(init?.headers).get('Authorization'),
    }));
    expect(sent.map(({ body }) => (body.get('filepond') as File).name)).toEqual(['a.jpg', 'b.pdf', 'c.xml']);
    expect(sent.every(({ url }) => url.pathname === '/api/pim/documentimageset/postfile' && url.searchParams.get('dataSetId') === SET)).toBe(true);
    expect(sent.every(({ auth }) => auth === 'Google tok')).toBe(true);

    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('disabled', false);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
