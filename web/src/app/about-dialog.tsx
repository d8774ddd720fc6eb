import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';

export function AboutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('about.title')} centered>
      <Text>{t('about.text')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>{t('about.close')}</Button>
      </Group>
    </Modal>
  );
}
