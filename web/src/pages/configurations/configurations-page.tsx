import { Button, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Configuration } from '@pim/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useConfigurations, useDeleteConfiguration } from '../../api/configurations';
import { RequireSignIn } from '../../app/require-sign-in';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
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
  const remove = useDeleteConfiguration();
  // The configuration asked about stays set while the dialog closes, so its question does not go blank.
  const [deleting, setDeleting] = useState<Configuration | null>(null);
  const [asking, setAsking] = useState(false);
  const columns = useMemo(() => configurationColumns(t), [t]);
  const renderActions = useCallback(
    (configuration: Configuration) => (
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={t('configurations.deleteLabel', { key: configuration.key })}
        onClick={() => {
          setDeleting(configuration);
          setAsking(true);
        }}
      >
        {t('configurations.delete')}
      </Button>
    ),
    [t],
  );
  if (configurations.isError) {
    return <LoadFailed error={configurations.error} forbidden={t('configurations.forbidden')} failed={t('configurations.loadFailed')} />;
  }
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.uuid, {
      onSuccess: () => notifications.show({ color: 'green', message: t('configurations.deleted') }),
      onSettled: () => setAsking(false),
    });
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
      <ConfirmDialog
        opened={asking}
        title={t('configurations.deleteTitle')}
        message={t('configurations.deleteQuestion', { key: deleting?.key ?? '' })}
        busy={remove.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={confirmDelete}
      />
    </>
  );
}

/** `/pim/configurations`: the server settings; a row opens its form, Delete removes one after asking. */
export function ConfigurationsPage() {
  const { t } = useTranslation('settings');
  return (
    <Stack gap="md">
      <Title order={2}>{t('configurations.title')}</Title>
      <RequireSignIn>
        <ConfigurationsTable />
      </RequireSignIn>
    </Stack>
  );
}
