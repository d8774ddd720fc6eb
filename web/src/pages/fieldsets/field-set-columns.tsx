import type { PimFieldSetSummary } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';

/** 'YYYY-MM-DD HH:mm' (UTC): readable, and still sorts and filters like the ISO value. */
function shortDateTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

export function fieldSetColumns(t: TFunction): DataTableColumn<PimFieldSetSummary>[] {
  return [
    { accessorKey: 'name', header: t('list.name') },
    {
      accessorKey: 'publicPimFieldSet',
      header: t('list.public'),
      cell: ({ getValue }) => (getValue<boolean>() ? t('common:table.yes') : t('common:table.no')),
      meta: { filterVariant: 'boolean' },
    },
    { accessorKey: 'fieldCount', header: t('list.fieldCount'), meta: { filterVariant: 'range' } },
    { id: 'owner', accessorFn: (set) => set.owner?.name ?? '', header: t('list.owner') },
    { id: 'updated', accessorFn: (set) => shortDateTime(set.updated), header: t('list.updated') },
  ];
}
