import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Disables the buttons while the confirmed action runs. */
  busy?: boolean;
}

/** A Yes/No question before an action that cannot be undone (e.g. deleting an image set). */
export function ConfirmDialog({ opened, title, message, onConfirm, onCancel, busy }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          {t('confirm.no')}
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy}>
          {t('confirm.yes')}
        </Button>
      </Group>
    </Modal>
  );
}
