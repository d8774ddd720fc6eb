import { Alert, Stack, Text } from '@mantine/core';
import { hasRole } from '@pim/contract';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Spinner } from '../components/spinner';
import { useTranslation } from '../i18n/use-translation';
import { ProviderLoginButton } from './provider-login-button';
import { useSession } from './session';

interface RequireSignInProps {
  children: ReactNode;
  /** A role the screen needs (e.g. ADMIN): without it the screen says so instead of asking the server. */
  role?: string;
  /** The title above 'This needs the … role.', e.g. 'Only administrators can see the groups'. */
  refusedTitle?: string;
}

/** Screens with data ask for a sign-in (or say which role is missing) instead of firing calls the server would refuse. */
export function RequireSignIn({ children, role, refusedTitle }: RequireSignInProps) {
  const { t } = useTranslation();
  const { status, roles } = useSession();
  if (status === 'checking') return <Spinner />;
  if (status === 'signedOut') {
    return (
      <Stack align="center" py="xl" gap="md">
        <Text>{t('login.required')}</Text>
        <ProviderLoginButton />
      </Stack>
    );
  }
  if (role !== undefined && !hasRole(roles, role)) return <RoleRefusal role={role} title={refusedTitle} />;
  return <>{children}</>;
}

/** In place of a screen the caller's roles do not allow: what is missing, e.g. 'This needs the ADMIN role.' */
export function RoleRefusal({ role, title }: { role: string; title?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" icon={<IconLock aria-hidden />} title={title ?? t('errors.notAllowed')}>
      <Text size="sm">{t('access.needsRole', { role })}</Text>
    </Alert>
  );
}
