import type { ApiKey } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';

export function apiKeyColumns(t: TFunction): DataTableColumn<ApiKey>[] {
  return [
    { accessorKey: 'userName', header: t('list.userName') },
    { accessorKey: 'apiKey', header: t('list.apiKey') },
    { id: 'roles', accessorFn: (key) => key.roles.join(', '), header: t('list.roles') },
    {
      accessorKey: 'disabled',
      header: t('list.disabled'),
      cell: ({ getValue }) => (getValue<boolean>() ? t('common:table.yes') : t('common:table.no')),
      meta: { filterVariant: 'boolean' },
    },
  ];
}
