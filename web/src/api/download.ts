import { notifications } from '@mantine/notifications';
import { errorResponseSchema } from '@pim/contract';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useAuthHeaders } from '../session/auth-headers';
import { apiUrl, type QueryValue } from './client';

/** A file below the API base and the name it is saved as. */
export interface DownloadTarget {
  path: string;
  fileName: string;
  /** Query parameters of the request. */
  query?: Record<string, QueryValue>;
  /** Save it under the name the server gives (Content-Disposition), `fileName` when it gives none. */
  nameFromServer?: boolean;
}

/** The file name of a Content-Disposition header: its UTF-8 `filename*`, else its `filename`. */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: the plain filename below is used.
    }
  }
  const plain = /filename="([^"]*)"/i.exec(header)?.[1] ?? /filename=([^;]+)/i.exec(header)?.[1]?.trim();
  return plain || undefined;
}

/**
 * Downloads need the Authorization header, which a plain link cannot send: the file is fetched
 * with it and handed to the browser as an object URL under its name.
 */
export function useDownload() {
  const { t } = useTranslation();
  const headers = useAuthHeaders();
  const [busy, setBusy] = useState<string | null>(null);
  const download = async ({ path, fileName: fallbackName, query, nameFromServer }: DownloadTarget) => {
    let fileName = fallbackName;
    setBusy(path);
    try {
      const response = await fetch(apiUrl(path, query), { headers });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        let message = text || `HTTP ${response.status}`;
        try {
          message = errorResponseSchema.parse(JSON.parse(text)).message;
        } catch {
          // Not the server's error shape (e.g. a proxy page): the text is shown as it is.
        }
        notifications.show({ color: 'red', message: t('common:download.failed', { name: fileName, message }) });
        return;
      }
      if (nameFromServer) fileName = dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName;
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      // The click has handed the blob to the browser's download; the URL is no longer needed.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      notifications.show({ color: 'red', message: t('common:download.failed', { name: fileName, message: String(error) }) });
    } finally {
      setBusy(null);
    }
  };
  return { download, busy };
}
