import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/use-translation';
import { RequireSignIn } from '../session/require-sign-in';

/**
 * A screen opened as `?uuid=…`: without it the spec's message "Expected property 'uuid' to have a
 * value"; with it, the screen for that record once the user is signed in.
 */
export function UuidPage({ children }: { children: (uuid: string) => ReactNode }) {
  const { t } = useTranslation('imagesets');
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  if (!uuid) return <Alert color="red">{t('detail.missingUuid')}</Alert>;
  return <RequireSignIn>{children(uuid)}</RequireSignIn>;
}
