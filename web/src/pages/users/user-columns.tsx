import type { User } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';

/** 'YYYY-MM-DD HH:mm' (UTC): readable, and still sorts and filters like the ISO value. */
function shortDateTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

export function userColumns(t: TFunction): DataTableColumn<User>[] {
  return [
    { accessorKey: 'name', header: t('list.name') },
    { id: 'email', accessorFn: (user) => user.email ?? '', header: t('list.email') },
    { id: 'roles', accessorFn: (user) => user.roles.join(', '), header: t('list.roles') },
    { id: 'groups', accessorFn: (user) => user.pimGroups.map((group) => group.name).join(', '), header: t('list.groups') },
    {
      accessorKey: 'disabled',
      header: t('list.disabled'),
      cell: ({ getValue }) => (getValue<boolean>() ? t('common:table.yes') : t('common:table.no')),
      meta: { filterVariant: 'boolean' },
    },
    { id: 'created', accessorFn: (user) => shortDateTime(user.created), header: t('list.created') },
    { id: 'updated', accessorFn: (user) => shortDateTime(user.updated), header: t('list.updated') },
  ];
}
