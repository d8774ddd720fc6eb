import { Alert, Stack, Text } from '@mantine/core';
import { useFieldSet } from '../../api/fieldsets';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
import { FieldSetForm } from './field-set-form';


function SavedFieldSet({ uuid }: { uuid: string }) {
  const { t } = useTranslation('fieldsets');
  const fieldSet = useFieldSet(uuid);
  if (fieldSet.isPending) return <Spinner />;
  if (fieldSet.isError) {
    return (
      <Alert color="red" title={t('edit.loadFailedTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{fieldSet.error.message}</Text>
          <BackLink to="/pimfieldsets">{t('edit.back')}</BackLink>
        </Stack>
      </Alert>
    );
  }
  const reload = async () => {
    const result = await fieldSet.refetch();
    return result.isSuccess ? result.data : null;
  };
  return <FieldSetForm set={fieldSet.data} reload={reload} />;
}

/** `/pim/pimfieldsetedit[?uuid]`: edits a saved set, or without uuid starts a new one with the two fixed fields. */
export function FieldSetEditPage() {
  const { t } = useTranslation('fieldsets');
  return (
    <EditPage
      back={{ to: '/pimfieldsets', label: t('edit.back') }}
      newTitle={t('edit.newTitle')}
      updateTitle={t('edit.title')}
      saved={(uuid) => <SavedFieldSet uuid={uuid} />}
      fresh={<FieldSetForm set={null} />}
    />
  );
}
