import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { useAppConfig } from '../../session/app-config';
import { ProviderLoginButton } from '../../session/provider-login-button';

export function LoginGooglePage() {
  const { t } = useTranslation();
  const { providerName } = useAppConfig();
  return (
    <Paper maw={420} mx="auto" mt="xl" p="lg" withBorder>
      <Stack gap="md" align="flex-start">
        <Title order={2}>{t('login.title')}</Title>
        <Text c="dimmed">{t('login.providerIntro', { provider: providerName })}</Text>
        <ProviderLoginButton />
      </Stack>
    </Paper>
  );
}
