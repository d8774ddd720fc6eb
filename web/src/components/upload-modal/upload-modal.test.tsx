import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChangeEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { FakeXhr, installFakeXhr } from '../../test/fake-xhr';
import { renderPage, signedInHandler, stubFetch } from '../../test/render';
import { UploadModal } from './upload-modal';
import { isUploadable } from './upload-queue';

// FilePond draws its own drop area with browser APIs jsdom lacks; here it is the file input it
// wraps, handing each chosen file to beforeAddFile the way FilePond does (and listing it only if
// that answers true, which the modal never does: its own list is the one list).
const pondListed = vi.hoisted(() => ({ names: [] as string[] }));
vi.mock('react-filepond', () => ({
  registerPlugin: () => undefined,
  FilePond: ({ beforeAddFile }: { beforeAddFile: (item: { id: string; file: File }) => boolean }) => (
    <input
      type="file"
      multiple
      aria-label="Choose files"
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        for (const [i, file] of Array.from(event.currentTarget.files ?? []).entries()) {
          if (beforeAddFile({ id: `f${i}-${file.name}`, file })) pondListed.names.push(file.name);
        }
      }}
    />
  ),
}));

installFakeXhr();

const SET = '22222222-2222-4222-8222-222222222222';

const result = (fileName: string, message: string) => ({ kind: 'image', fileName, documentImages: [], transcriptions: [], message });

function rowOf(name: string): HTMLElement {
  return screen.getByText(name).closest('tr') as HTMLElement;
}

function renderModal(onClose = vi.fn(), onUploaded = vi.fn()) {
  setToken('tok');
  stubFetch(signedInHandler(['AUTHENTICATED']));
  renderPage(<UploadModal opened setUuid={SET} setName="Psalter" onClose={onClose} onUploaded={onUploaded} />);
  return { onClose, onUploaded };
}

describe('UploadModal', () => {
  it('accepts what the server takes: images, PDFs and XML however named (hOCR as .html too)', () => {
    const file = (name: string, type = '') => new File(['x'], name, { type });
    for (const accepted of [file('page.html', 'text/html'), file('page.htm', 'text/html'), file('page.hocr'), file('page.xml', 'text/xml'), file('scan.jpg', 'image/jpeg'), file('scan.tif', 'image/tiff'), file('book.pdf', 'application/pdf')]) {
      expect(isUploadable(accepted), accepted.name).toBe(true);
    }
    expect(isUploadable(file('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'))).toBe(false);
    expect(isUploadable(file('archive.zip', 'application/zip'))).toBe(false);
  });

  it('uploads one file at a time in order, one row each: Waiting, Uploading with progress, Done with what was added, or Failed with the error in full', async () => {
    const user = userEvent.setup();
    const { onClose, onUploaded } = renderModal();
    pondListed.names = [];

    const files = [new File(['x'], 'a.jpg', { type: 'image/jpeg' }), new File(['x'], 'b.pdf', { type: 'application/pdf' }), new File(['x'], 'c.html', { type: 'text/html' })];
    await user.upload(screen.getByLabelText('Choose files'), files);
    expect(pondListed.names).toEqual([]);
    const rows = within(screen.getByRole('table', { name: 'Files to upload' })).getAllByRole('row');
    expect(rows).toHaveLength(3);
    for (const name of ['a.jpg', 'b.pdf', 'c.html']) expect(within(rowOf(name)).getByText('Waiting')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.progress(42, 100);
    expect(within(rowOf('a.jpg')).getByText('Uploading 42%')).toBeTruthy();
    expect(within(rowOf('a.jpg')).getByRole('progressbar', { name: 'Upload progress of a.jpg' })).toBeTruthy();
    expect(within(rowOf('b.pdf')).getByText('Waiting')).toBeTruthy();
    FakeXhr.sent[0]!.progress(100, 100);
    expect(within(rowOf('a.jpg')).getByText('Processing')).toBeTruthy();

    // While uploading the modal stays: Escape does nothing and its close button is disabled.
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('disabled', true);

    FakeXhr.sent[0]!.respond(200, result('a.jpg', 'a.jpg was added to the set as a.'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(within(rowOf('a.jpg')).getByText('Done')).toBeTruthy();
    expect(within(rowOf('a.jpg')).getByText('a.jpg was added to the set as a.')).toBeTruthy();

    const refusal = 'The PDF is encrypted: PIM cannot read its pages. Save it without a password and upload it again.';
    FakeXhr.sent[1]!.respond(415, { error: 'unsupported_media_type', message: refusal });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(3));
    expect(within(rowOf('b.pdf')).getByText('Failed')).toBeTruthy();
    expect(within(rowOf('b.pdf')).getByText(refusal)).toBeTruthy();
    // The refusal is on the row, not in a toast as well.
    expect(screen.getAllByText(refusal)).toHaveLength(1);

    FakeXhr.sent[2]!.respond(200, result('c.html', 'c.html: an hOCR transcription was added to page c.'));
    await waitFor(() => expect(within(rowOf('c.html')).getByText('Done')).toBeTruthy());
    expect(onUploaded).toHaveBeenCalledTimes(1);

    // Each request: the one part `filepond`, to this set, with the Authorization header.
    expect(FakeXhr.sent.map((xhr) => xhr.parts())).toEqual([[['filepond', 'file:a.jpg']], [['filepond', 'file:b.pdf']], [['filepond', 'file:c.html']]]);
    for (const xhr of FakeXhr.sent) {
      const url = new URL(xhr.url, 'http://localhost');
      expect(url.pathname).toBe('/api/pim/documentimageset/postfile');
      expect(url.searchParams.get('dataSetId')).toBe(SET);
      expect(xhr.headers.Authorization).toBe('Google tok');
    }

    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('disabled', false);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('lists a file the server cannot take with the reason, sends it never, and lets a waiting file be taken off', async () => {
    const user = userEvent.setup();
    renderModal();
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['x'], 'notes.docx', { type: 'application/msword' }),
      new File(['x'], 'spare.png', { type: 'image/png' }),
      new File(['x'], 'page.png', { type: 'image/png' }),
    ]);
    expect(within(rowOf('notes.docx')).getByText('Failed')).toBeTruthy();
    expect(within(rowOf('notes.docx')).getByText(/only images, PDFs and XML files/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Take spare.png off the list' }));
    expect(screen.queryByText('spare.png')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(200, result('page.png', 'page.png was added.'));
    await waitFor(() => expect(within(rowOf('page.png')).getByText('Done')).toBeTruthy());
    expect(FakeXhr.sent.map((xhr) => xhr.parts())).toEqual([[['filepond', 'file:page.png']]]);
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
  });
});
