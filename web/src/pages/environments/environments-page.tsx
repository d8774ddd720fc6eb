import { Button, Stack, Title } from '@mantine/core';
import { ROLE, type Environment } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useEnvironments } from '../../api/environments';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import type { TFunction } from '../../i18n/translations';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';

const rowId = (environment: Environment) => environment.uuid;

function environmentColumns(t: TFunction): DataTableColumn<Environment>[] {
  return [
    { accessorKey: 'title', header: t('environments.titleColumn') },
    { accessorKey: 'uuid', header: t('environments.uuid') },
    { id: 'elasticSearchIndex', accessorFn: (e) => e.elasticSearchIndex?.name ?? '', header: t('environments.elasticSearchIndex') },
  ];
}

function EnvironmentsTable() {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const environments = useEnvironments();
  const columns = useMemo(() => environmentColumns(t), [t]);
  if (environments.isError) {
    return <LoadFailed error={environments.error} forbidden={t('environments.forbidden')} failed={t('environments.loadFailed')} />;
  }
  return (
    <DataTable
      label={t('environments.title')}
      columns={columns}
      data={environments.data}
      loading={environments.isPending}
      getRowId={rowId}
      onRowClick={(environment) => void navigate(`/environment?uuid=${encodeURIComponent(environment.uuid)}`)}
      toolbar={
        <Button component={Link} to="/environment" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('environments.new')}
        </Button>
      }
    />
  );
}

/** `/pim/environments`: the public search front-ends; a row opens its form. */
export function EnvironmentsPage() {
  const { t } = useTranslation('settings');
  return (
    <Stack gap="md">
      <Title order={2}>{t('environments.title')}</Title>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('environments.forbidden')}>
        <EnvironmentsTable />
      </RequireSignIn>
    </Stack>
  );
}
