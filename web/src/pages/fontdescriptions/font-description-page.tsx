import { hasRole, ROLE } from '@pim/contract';
import { useFontDescription } from '../../api/fontdescriptions';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
import { useSession } from '../../session/session';
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
  return (
    <EditPage
      back={{ to: '/fontdescriptions', label: t('form.back') }}
      newTitle={t('form.newTitle')}
      updateTitle={t('form.title')}
      saved={(uuid) => <SavedFont uuid={uuid} canWrite={canWrite} />}
      fresh={<FontDescriptionFormView font={null} canWrite={canWrite} />}
      createRole={ROLE.ADMIN}
      refusedTitle={t('form.forbidden')}
    />
  );
}
