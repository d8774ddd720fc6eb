import { uploadResultSchema } from '@pim/contract';
import { ApiError, apiFetch } from '../../api/client';

export type UploadStatus = 'waiting' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  file: File;
  status: UploadStatus;
  /** The server's message: what the file became, or why it was refused. */
  message?: string;
}

/**
 * Sends one file to the set, as the one part `filepond` of a multipart request. Failures come
 * back as the server's message, to show on the file's row rather than in a toast.
 */
export async function uploadFile(setUuid: string, file: File): Promise<{ ok: boolean; message: string }> {
  const body = new FormData();
  body.append('filepond', file, file.name);
  try {
    const result = await apiFetch('pim/documentimageset/postfile', {
      method: 'POST',
      query: { dataSetId: setUuid },
      body,
      schema: uploadResultSchema,
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
 * not stop the others: each row shows its own outcome.
 */
export async function uploadInOrder(
  setUuid: string,
  items: readonly UploadItem[],
  report: (id: string, status: UploadStatus, message?: string) => void,
): Promise<void> {
  for (const item of items) {
    if (item.status === 'done') continue;
    report(item.id, 'uploading');
    const outcome = await uploadFile(setUuid, item.file);
    report(item.id, outcome.ok ? 'done' : 'failed', outcome.message);
  }
}
