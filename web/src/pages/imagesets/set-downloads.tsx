import { Anchor, Button, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorResponseSchema, type DocumentImageSet } from '@pim/contract';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/client';
import { useAuthHeaders } from '../../api/documentimages';

/** The set downloads (spec part 1 §5): the path below the API base and the name the file is saved as. */
export function setDownloads(uuid: string) {
  const base = `pim/imageset/${encodeURIComponent(uuid)}`;
  return {
    json: { path: `${base}/get`, fileName: `${uuid}_json.zip` },
    page: { path: `${base}/page`, fileName: `${uuid}_page.zip` },
    images: { path: `${base}/zippedimages`, fileName: `${uuid}_images.zip` },
    pdf: { path: `${base}/pdf`, fileName: `${uuid}.pdf` },
  };
}

type Target = ReturnType<typeof setDownloads>[keyof ReturnType<typeof setDownloads>];

/**
 * Downloads need the Authorization header, which a plain link cannot send: the file is fetched
 * with it and handed to the browser as an object URL under its name.
 */
function useDownload() {
  const { t } = useTranslation('imagesets');
  const headers = useAuthHeaders();
  const [busy, setBusy] = useState<string | null>(null);
  const download = async ({ path, fileName }: Target) => {
    setBusy(path);
    try {
      const response = await fetch(apiUrl(path), { headers });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        let message = text || `HTTP ${response.status}`;
        try {
          message = errorResponseSchema.parse(JSON.parse(text)).message;
        } catch {
          // Not the server's error shape (e.g. a proxy page): the text is shown as it is.
        }
        notifications.show({ color: 'red', message: t('download.failed', { name: fileName, message }) });
        return;
      }
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
      notifications.show({ color: 'red', message: t('download.failed', { name: fileName, message: String(error) }) });
    } finally {
      setBusy(null);
    }
  };
  return { download, busy };
}

/** Keeps a click or Enter on a download control from also opening the row's set. */
export function stopRowClick(event: MouseEvent | KeyboardEvent): void {
  event.stopPropagation();
}

/** 'Download': a modal offering the three zips of the set. */
export function DownloadModal({ set, opened, onClose }: { set: DocumentImageSet; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('imagesets');
  const { download, busy } = useDownload();
  const targets = setDownloads(set.uuid);
  const choices = [
    ['json', targets.json],
    ['page', targets.page],
    ['images', targets.images],
  ] as const;
  return (
    <Modal opened={opened} onClose={onClose} title={t('download.title', { name: set.imageset })}>
      <Stack gap="sm">
        {choices.map(([key, target]) => (
          <Button
            key={key}
            variant="light"
            loading={busy === target.path}
            disabled={busy !== null && busy !== target.path}
            onClick={() => void download(target)}
          >
            {t(`download.${key}`)}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}

/** The set's PDF, fetched with the sign-in like the zips. */
export function PdfLink({ set }: { set: DocumentImageSet }) {
  const { t } = useTranslation('imagesets');
  const { download, busy } = useDownload();
  const target = setDownloads(set.uuid).pdf;
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    if (busy === null) void download(target);
  };
  return (
    <Anchor component="button" type="button" size="sm" onClick={onClick} aria-busy={busy !== null}>
      {t('download.pdf')}
    </Anchor>
  );
}
