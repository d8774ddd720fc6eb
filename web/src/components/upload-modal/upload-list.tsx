import { ActionIcon, Badge, Progress, Stack, Table, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/use-translation';
import type { UploadItem, UploadStatus } from './upload-queue';

const STATUS_COLOR: Record<UploadStatus, string> = { waiting: 'gray', uploading: 'blue', done: 'green', failed: 'red' };

function StatusBadge({ item }: { item: UploadItem }) {
  const { t } = useTranslation('imagesets');
  const percent = Math.round((item.progress ?? 0) * 100);
  // Once every byte is sent the server still probes, splits or parses the file.
  const label =
    item.status === 'uploading'
      ? percent < 100
        ? t('upload.status.uploadingPercent', { percent })
        : t('upload.status.processing')
      : t(`upload.status.${item.status}`);
  return (
    // Never cut short ("D…"): the badge is as wide as its whole label.
    <Badge color={STATUS_COLOR[item.status]} variant="light" styles={{ root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
      {label}
    </Badge>
  );
}

interface UploadListProps {
  items: readonly UploadItem[];
  /** While uploading nothing can be taken off the list. */
  locked: boolean;
  onRemove: (id: string) => void;
}

/** One row per file: its name with what became of it below, in full, and its state. */
export function UploadList({ items, locked, onRemove }: UploadListProps) {
  const { t } = useTranslation('imagesets');
  return (
    <Table aria-label={t('upload.files')} verticalSpacing="xs" layout="auto">
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.id}>
            <Table.Td style={{ wordBreak: 'break-word' }}>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {item.file.name}
                </Text>
                {item.status === 'uploading' && (
                  <Progress value={(item.progress ?? 0) * 100} size="sm" aria-label={t('upload.progress', { name: item.file.name })} />
                )}
                {item.message && (
                  <Text size="sm" c={item.status === 'failed' ? 'red' : 'dimmed'}>
                    {item.message}
                  </Text>
                )}
              </Stack>
            </Table.Td>
            <Table.Td style={{ width: '1%', whiteSpace: 'nowrap', verticalAlign: 'top' }}>
              <StatusBadge item={item} />
            </Table.Td>
            <Table.Td style={{ width: '1%', verticalAlign: 'top' }}>
              {!locked && item.status !== 'done' && (
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('upload.remove', { name: item.file.name })} onClick={() => onRemove(item.id)}>
                  <IconX size={14} />
                </ActionIcon>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
