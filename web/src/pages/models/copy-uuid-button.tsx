import { ActionIcon, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/use-translation';

/** Copies a model's UUID, e.g. to paste into a job configuration; the spec's toasts tell how it went. */
export function CopyUuidButton({ uuid }: { uuid: string }) {
  const { t } = useTranslation('models');
  const copy = () => {
    navigator.clipboard.writeText(uuid).then(
      () => notifications.show({ color: 'green', message: t('uuid.copied') }),
      () => notifications.show({ color: 'red', message: t('uuid.copyFailed') }),
    );
  };
  return (
    <Tooltip label={t('uuid.copy')}>
      <ActionIcon variant="subtle" size="sm" aria-label={t('uuid.copyOf', { uuid })} onClick={copy}>
        <IconCopy size={14} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

/** The UUID in monospace with its copy button; clicks stay out of the row so copying does not open it. */
export function UuidCell({ uuid }: { uuid: string }) {
  return (
    <span
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' }}
      onClick={(event) => event.stopPropagation()}
    >
      {uuid}
      <CopyUuidButton uuid={uuid} />
    </span>
  );
}
