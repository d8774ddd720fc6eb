import { Button, Stack, Title } from '@mantine/core';
import { ROLE, type Configuration } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useConfigurations, useDeleteConfiguration } from '../../api/configurations';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import type { TFunction } from '../../i18n/translations';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';

/** A value can be 64 KB: the table shows its start. */
const SHOWN_VALUE_LENGTH = 120;
const shortValue = (value: string) => (value.length > SHOWN_VALUE_LENGTH ? `${value.slice(0, SHOWN_VALUE_LENGTH)}…` : value);
const rowId = (configuration: Configuration) => configuration.uuid;

function configurationColumns(t: TFunction): DataTableColumn<Configuration>[] {
  return [
    { accessorKey: 'key', header: t('configurations.key') },
    { id: 'value', accessorFn: (c) => shortValue(c.value), header: t('configurations.value') },
    { accessorKey: 'uuid', header: t('configurations.uuid') },
  ];
}

function ConfigurationsTable() {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const configurations = useConfigurations();
  const { ask, dialog } = useConfirmedDelete({
    remove: useDeleteConfiguration(),
    uuidOf: rowId,
    title: t('configurations.deleteTitle'),
    question: (configuration: Configuration) => t('configurations.deleteQuestion', { key: configuration.key }),
    deleted: () => t('configurations.deleted'),
  });
  const columns = useMemo(() => configurationColumns(t), [t]);
  const renderActions = useCallback(
    (configuration: Configuration) => (
      <DeleteButton size="xs" aria-label={t('configurations.deleteLabel', { key: configuration.key })} onClick={() => ask(configuration)}>
        {t('configurations.delete')}
      </DeleteButton>
    ),
    [t, ask],
  );
  if (configurations.isError) {
    return <LoadFailed error={configurations.error} forbidden={t('configurations.forbidden')} failed={t('configurations.loadFailed')} />;
  }
  return (
    <>
      <DataTable
        label={t('configurations.title')}
        columns={columns}
        data={configurations.data}
        loading={configurations.isPending}
        getRowId={rowId}
        renderActions={renderActions}
        onRowClick={(configuration) => void navigate(`/configuration?id=${encodeURIComponent(configuration.uuid)}`)}
        toolbar={
          <Button component={Link} to="/configuration" leftSection={<IconPlus size={16} aria-hidden />}>
            {t('configurations.new')}
          </Button>
        }
      />
      {dialog}
    </>
  );
}

/** `/pim/configurations`: the server settings; a row opens its form, Delete removes one after asking. */
export function ConfigurationsPage() {
  const { t } = useTranslation('settings');
  return (
    <Stack gap="md">
      <Title order={2}>{t('configurations.title')}</Title>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('configurations.forbidden')}>
        <ConfigurationsTable />
      </RequireSignIn>
    </Stack>
  );
}
