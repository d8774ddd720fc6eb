import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';

/** The spec's settings page holds placeholder text only. */
export function SettingsPage() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <Title order={2}>{t('settings.title')}</Title>
      <Text>{t('settings.text')}</Text>
    </Stack>
  );
}
