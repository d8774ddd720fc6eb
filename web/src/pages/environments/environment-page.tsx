import { ROLE } from '@pim/contract';
import { useEnvironment } from '../../api/environments';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
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
  return (
    <EditPage
      back={{ to: '/environments', label: t('environment.back') }}
      newTitle={t('environment.newTitle')}
      updateTitle={t('environment.updateTitle')}
      saved={(uuid) => <LoadedEnvironment uuid={uuid} />}
      fresh={<EnvironmentForm environment={null} />}
      role={ROLE.ADMIN}
      refusedTitle={t('environment.forbidden')}
    />
  );
}
