import { Anchor } from '@mantine/core';
import type { ConfusionMatrixSummary } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { imageSetColumn } from '../../components/data-table/image-set-column';
import type { TFunction } from '../../i18n/translations';
import { formatPercent } from '../textlines/percent';

export const confusionMatrixLink = (uuid: string) => `/siameseconfusionmatrix?uuid=${encodeURIComponent(uuid)}`;

export function confusionMatrixColumns(t: TFunction, language: string): DataTableColumn<ConfusionMatrixSummary>[] {
  return [
    {
      accessorKey: 'uuid',
      header: t('confusion.uuid'),
      cell: ({ row }) => (
        <Anchor component={Link} to={confusionMatrixLink(row.original.uuid)} size="sm" ff="monospace">
          {row.original.uuid}
        </Anchor>
      ),
    },
    // 'YYYY-MM-DD HH:mm' (UTC): readable, and still sorts and filters like the ISO value.
    { id: 'created', header: t('confusion.created'), accessorFn: (matrix) => matrix.created.slice(0, 16).replace('T', ' ') },
    { accessorKey: 'modelLabel', header: t('confusion.model') },
    imageSetColumn(t('confusion.imageSet'), (matrix) => matrix.imageSet),
    {
      accessorKey: 'accuracy',
      header: t('confusion.accuracy'),
      cell: ({ row }) => formatPercent(row.original.accuracy, language),
      meta: { filterVariant: 'none' },
    },
    { accessorKey: 'snippets', header: t('confusion.snippets'), meta: { filterVariant: 'range' } },
  ];
}
