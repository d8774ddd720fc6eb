import { Alert, Stack, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The honest stand-in for screens of the route table that this version does not build yet. */
export function UnavailablePage({ screen }: { screen: string }) {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <Title order={2}>{t(`screens.${screen.replace('/', '_')}`)}</Title>
      <Alert icon={<IconInfoCircle aria-hidden />} color="gray">
        {t('unavailable.text')}
      </Alert>
    </Stack>
  );
}
