import { Stack, Title } from '@mantine/core';
import { hasRole, ROLE } from '@pim/contract';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFontDescription } from '../../api/fontdescriptions';
import { RequireSignIn } from '../../app/require-sign-in';
import { useSession } from '../../app/session';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
import { LoadFailed } from '../users/load-failed';
import { FontDescriptionFormView } from './font-description-form';

function SavedFont({ uuid, canWrite }: { uuid: string; canWrite: boolean }) {
  const { t } = useTranslation('fonts');
  const font = useFontDescription(uuid);
  if (font.isPending) return <Spinner />;
  if (font.isError) return <LoadFailed error={font.error} forbidden={t('form.loadFailed')} failed={t('form.loadFailed')} />;
  // A fresh form per record: its draft starts from what the server holds.
  return <FontDescriptionFormView key={font.data.uuid} font={font.data} canWrite={canWrite} />;
}

/** `/pim/fontdescription[?uuid]`: a new font description with its file, or a saved one to change and download. */
export function FontDescriptionPage() {
  const { t } = useTranslation('fonts');
  const canWrite = hasRole(useSession().roles, ROLE.ADMIN);
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/fontdescriptions">{t('form.back')}</BackLink>
        <Title order={2}>{uuid ? t('form.title') : t('form.newTitle')}</Title>
      </Stack>
      <RequireSignIn>{uuid ? <SavedFont key={uuid} uuid={uuid} canWrite={canWrite} /> : <FontDescriptionFormView font={null} canWrite={canWrite} />}</RequireSignIn>
    </Stack>
  );
}
