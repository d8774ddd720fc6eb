import { Button, Modal, Stack } from '@mantine/core';
import type { DocumentImageSet } from '@pim/contract';
import { useDownload } from '../../api/download';
import { useTranslation } from '../../i18n/use-translation';
import { setDownloads } from './set-downloads';

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
