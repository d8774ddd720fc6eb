import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/spinner';
import { ProviderLoginButton } from './provider-login-button';
import { useSession } from './session';

/** Screens with data ask for a sign-in instead of firing calls the server would refuse. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status } = useSession();
  if (status === 'checking') return <Spinner />;
  if (status === 'signedOut') {
    return (
      <Stack align="center" py="xl" gap="md">
        <Text>{t('login.required')}</Text>
        <ProviderLoginButton />
      </Stack>
    );
  }
  return <>{children}</>;
}
