import { uploadResultSchema } from '@pim/contract';
import { ApiError, apiUpload } from '../../api/client';

/** A file's state: waiting to go, being sent (with progress), done (added by the server), or failed: the spec's Waiting, Uploading, Done, with a failure told apart. */
export type UploadStatus = 'waiting' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  file: File;
  status: UploadStatus;
  /** False for a file the picker refused: it stays on the list with the reason and is never sent. */
  uploadable: boolean;
  /** While uploading: the fraction of the file sent so far, 0 to 1. */
  progress?: number;
  /** What the server made of the file, or why it or the picker refused it, in full. */
  message?: string;
}

export type UploadReport = (id: string, change: Partial<Pick<UploadItem, 'status' | 'progress' | 'message'>>) => void;

/** What the server accepts; it tells PAGE, ALTO and hOCR apart by their content, so the name only says "XML". */
const TRANSCRIPTION_NAME = /\.(xml|hocr|html?)$/i;

/** The picker's accepted types: images, PDFs, and the XML of transcriptions however it is named. */
export const ACCEPTED_FILE_TYPES = ['image/*', 'application/pdf', 'application/xml', 'text/xml', 'text/html', '.xml', '.hocr', '.html', '.htm'];

/** Whether the server may take the file: an image, a PDF, or XML (hOCR is often saved as .html). */
export function isUploadable(file: File): boolean {
  if (TRANSCRIPTION_NAME.test(file.name)) return true;
  return file.type.startsWith('image/') || file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
}

/**
 * Sends one file to the set, as the one part `filepond` of a multipart request, reporting the
 * share sent. The outcome is the server's message: what the file became, or why it was refused.
 */
export async function uploadFile(setUuid: string, file: File, onProgress: (fraction: number) => void): Promise<{ ok: boolean; message: string }> {
  const body = new FormData();
  body.append('filepond', file, file.name);
  try {
    const result = await apiUpload('pim/documentimageset/postfile', {
      body,
      query: { dataSetId: setUuid },
      schema: uploadResultSchema,
      onProgress,
      quiet: true,
    });
    return { ok: true, message: result.message };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.response?.message ?? error.message };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Uploads the files one at a time, in the order given, reporting each step. A failed file does
 * not stop the others: each row shows its own outcome. Done and refused files are not sent again.
 */
export async function uploadInOrder(setUuid: string, items: readonly UploadItem[], report: UploadReport): Promise<void> {
  for (const item of items) {
    if (item.status === 'done' || !item.uploadable) continue;
    report(item.id, { status: 'uploading', progress: 0, message: undefined });
    const outcome = await uploadFile(setUuid, item.file, (progress) => report(item.id, { progress }));
    report(item.id, { status: outcome.ok ? 'done' : 'failed', message: outcome.message });
  }
}
