import type { DocumentImageSet } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';
import { PdfLink, stopRowClick } from './set-downloads';

/** Columns the spec hides until the user picks them. */
export const IMAGE_SET_HIDDEN_COLUMNS = [
  'remoteUri',
  'uri',
  'elasticSearchIndex',
  'tag',
  'PDF',
  'created',
  'updated',
  'deleted',
  'publicDocumentImageSet',
  'publish',
] as const;

/** 'YYYY-MM-DD HH:mm' (UTC): readable, and still sorts and filters like the ISO value. */
function shortDateTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

export function imageSetColumns(t: TFunction): DataTableColumn<DocumentImageSet>[] {
  const yesNo = (value: boolean) => (value ? t('common:table.yes') : t('common:table.no'));
  return [
    { accessorKey: 'imageset', header: 'imageset' },
    { accessorKey: 'uuid', header: 'uuid' },
    { accessorKey: 'longName', header: 'longName' },
    { accessorKey: 'prettyName', header: 'prettyName' },
    { accessorKey: 'remoteUri', header: 'remoteUri' },
    { accessorKey: 'uri', header: 'uri' },
    { id: 'elasticSearchIndex', accessorFn: (set) => set.elasticSearchIndex?.name ?? '', header: 'elasticSearchIndex' },
    { accessorKey: 'tag', header: 'tag' },
    {
      id: 'PDF',
      header: 'PDF',
      cell: ({ row }) => (
        <span onClick={stopRowClick} onKeyDown={stopRowClick}>
          <PdfLink set={row.original} />
        </span>
      ),
      enableSorting: false,
      meta: { filterVariant: 'none' },
    },
    { id: 'created', accessorFn: (set) => shortDateTime(set.created), header: 'created' },
    { id: 'updated', accessorFn: (set) => shortDateTime(set.updated), header: 'updated' },
    { id: 'deleted', accessorFn: (set) => shortDateTime(set.deleted), header: 'deleted' },
    {
      accessorKey: 'publicDocumentImageSet',
      header: 'publicDocumentImageSet',
      cell: ({ getValue }) => yesNo(getValue<boolean>()),
      meta: { filterVariant: 'boolean' },
    },
    {
      accessorKey: 'publish',
      header: 'publish',
      cell: ({ getValue }) => yesNo(getValue<boolean>()),
      meta: { filterVariant: 'boolean' },
    },
  ];
}
