import { Stack, Title } from '@mantine/core';
import { ROLE, type SearchIndex } from '@pim/contract';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useSearchIndices } from '../../api/searchindices';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import { NewRecordButton, useRoleRefusal } from '../../components/guarded';
import type { TFunction } from '../../i18n/translations';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';

const rowId = (index: SearchIndex) => index.uuid;

function searchIndexColumns(t: TFunction): DataTableColumn<SearchIndex>[] {
  return [
    { accessorKey: 'name', header: t('searchIndices.name') },
    { accessorKey: 'uuid', header: t('searchIndices.uuid') },
  ];
}

function SearchIndicesTable() {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const indices = useSearchIndices();
  // Everyone signed in may see the indices (to pick one for a set); admins create and rename them.
  const adminRefusal = useRoleRefusal(ROLE.ADMIN);
  const columns = useMemo(() => searchIndexColumns(t), [t]);
  if (indices.isError) return <LoadFailed error={indices.error} forbidden={t('searchIndices.loadFailed')} failed={t('searchIndices.loadFailed')} />;
  return (
    <DataTable
      label={t('searchIndices.title')}
      columns={columns}
      data={indices.data}
      loading={indices.isPending}
      getRowId={rowId}
      onRowClick={(index) => void navigate(`/elasticsearchindex?uuid=${encodeURIComponent(index.uuid)}`)}
      toolbar={<NewRecordButton to="/elasticsearchindex" label={t('searchIndices.new')} refusal={adminRefusal} />}
    />
  );
}

/** `/pim/elasticsearchindices`: the search indices image sets are put into; a row opens its form. */
export function SearchIndicesPage() {
  const { t } = useTranslation('settings');
  return (
    <Stack gap="md">
      <Title order={2}>{t('searchIndices.title')}</Title>
      <RequireSignIn>
        <SearchIndicesTable />
      </RequireSignIn>
    </Stack>
  );
}
