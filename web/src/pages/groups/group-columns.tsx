import type { Group } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';

/** 'YYYY-MM-DD HH:mm' (UTC): readable, and still sorts and filters like the ISO value. */
function shortDateTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

export function groupColumns(t: TFunction): DataTableColumn<Group>[] {
  return [
    { accessorKey: 'name', header: t('list.name') },
    { accessorKey: 'memberCount', header: t('list.members'), meta: { filterVariant: 'range' } },
    { accessorKey: 'subgroupCount', header: t('list.subgroups'), meta: { filterVariant: 'range' } },
    { id: 'created', accessorFn: (group) => shortDateTime(group.created), header: t('list.created') },
    { id: 'updated', accessorFn: (group) => shortDateTime(group.updated), header: t('list.updated') },
  ];
}
