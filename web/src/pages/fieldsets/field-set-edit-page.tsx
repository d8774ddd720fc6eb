import { Alert, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFieldSet } from '../../api/fieldsets';
import { RequireSignIn } from '../../app/require-sign-in';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
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
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/pimfieldsets">{t('edit.back')}</BackLink>
        <Title order={2}>{uuid ? t('edit.title') : t('edit.newTitle')}</Title>
      </Stack>
      <RequireSignIn>
        {/* Keyed by set: after a create the address gets the uuid and the form starts from the saved set. */}
        {uuid ? <SavedFieldSet key={uuid} uuid={uuid} /> : <FieldSetForm key="new" set={null} />}
      </RequireSignIn>
    </Stack>
  );
}
