import { Anchor, Text } from '@mantine/core';
import type { DifferentTextLine } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import type { TFunction } from '../../i18n/translations';
import { formatPercent } from './percent';

/** A line's text exactly as stored: spaces kept, long lines wrapped rather than cut. */
function ExactText({ text }: { text: string }) {
  return (
    <Text size="sm" maw={480} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: MANUSCRIPT_FONT_FAMILY }}>
      {text}
    </Text>
  );
}

/** The server pages and orders the list (worst first); the columns offer no sorting or filters of their own. */
export function textLineColumns(t: TFunction, language: string): DataTableColumn<DifferentTextLine>[] {
  const fixed = { enableSorting: false, meta: { filterVariant: 'none' as const } };
  return [
    {
      accessorKey: 'text',
      header: t('different.text'),
      cell: ({ getValue }) => <ExactText text={getValue<string>()} />,
      ...fixed,
    },
    {
      accessorKey: 'groundTruth',
      header: t('different.groundTruth'),
      cell: ({ getValue }) => <ExactText text={getValue<string>()} />,
      ...fixed,
    },
    {
      accessorKey: 'cer',
      header: t('different.cer'),
      cell: ({ getValue }) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatPercent(getValue<number>(), language)}</Text>,
      ...fixed,
    },
    {
      id: 'image',
      accessorFn: (line) => line.documentImageLabel,
      header: t('different.image'),
      cell: ({ row }) => (
        <Anchor component={Link} size="sm" to={`/documentimage?uuid=${encodeURIComponent(row.original.documentImageId)}`}>
          {row.original.documentImageLabel}
        </Anchor>
      ),
      ...fixed,
    },
    {
      id: 'line',
      accessorFn: (line) => line.lineIndex + 1,
      header: t('different.line'),
      ...fixed,
    },
  ];
}
