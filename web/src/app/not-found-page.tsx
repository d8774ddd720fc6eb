import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/use-translation';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py="xl" gap="md">
      <Title order={2}>{t('notFound.title')}</Title>
      <Text c="dimmed">{t('notFound.text')}</Text>
      <Anchor component={Link} to="/">
        {t('notFound.home')}
      </Anchor>
    </Stack>
  );
}
