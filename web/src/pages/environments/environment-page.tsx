import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useEnvironment } from '../../api/environments';
import { RequireSignIn } from '../../app/require-sign-in';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
import { LoadFailed } from '../users/load-failed';
import { EnvironmentForm } from './environment-form';

function LoadedEnvironment({ uuid }: { uuid: string }) {
  const { t } = useTranslation('settings');
  const environment = useEnvironment(uuid);
  if (environment.isPending) return <Spinner />;
  if (environment.isError) {
    return <LoadFailed error={environment.error} forbidden={t('environment.forbidden')} failed={t('environment.loadFailed')} />;
  }
  return <EnvironmentForm key={environment.data.uuid} environment={environment.data} />;
}

/** `/pim/environment[?uuid]`: a new environment, or one to update. */
export function EnvironmentPage() {
  const { t } = useTranslation('settings');
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/environments">{t('environment.back')}</BackLink>
        <Title order={2}>{uuid ? t('environment.updateTitle') : t('environment.newTitle')}</Title>
      </Stack>
      <RequireSignIn>{uuid ? <LoadedEnvironment key={uuid} uuid={uuid} /> : <EnvironmentForm environment={null} />}</RequireSignIn>
    </Stack>
  );
}
