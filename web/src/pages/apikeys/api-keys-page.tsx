import { Button, Stack, Title } from '@mantine/core';
import { ROLE, type ApiKey } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import { useApiKeys, useSetApiKeyDisabled } from '../../api/apikeys';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { apiKeyColumns } from './api-key-columns';

const rowId = (key: ApiKey) => key.uuid;

function ApiKeysTable() {
  const { t } = useTranslation('apikeys');
  const keys = useApiKeys();
  const setDisabled = useSetApiKeyDisabled();
  const columns = useMemo(() => apiKeyColumns(t), [t]);
  const { mutate, isPending, variables } = setDisabled;
  const renderActions = useCallback(
    (key: ApiKey) => (
      <Button
        size="xs"
        variant="light"
        color={key.disabled ? undefined : 'red'}
        loading={isPending && variables.uuid === key.uuid}
        onClick={() => mutate({ uuid: key.uuid, disabled: !key.disabled })}
      >
        {key.disabled ? t('list.enable') : t('list.disable')}
      </Button>
    ),
    [t, mutate, isPending, variables],
  );
  if (keys.isError) return <LoadFailed error={keys.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <DataTable
      label={t('list.title')}
      columns={columns}
      data={keys.data}
      loading={keys.isPending}
      getRowId={rowId}
      renderActions={renderActions}
      toolbar={
        <Button component={Link} to="/apikey" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('list.new')}
        </Button>
      }
    />
  );
}

/** `/pim/apikeys`: the keys of minions and other service accounts, each shown by the start of its key. */
export function ApiKeysPage() {
  const { t } = useTranslation('apikeys');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        <ApiKeysTable />
      </RequireSignIn>
    </Stack>
  );
}
