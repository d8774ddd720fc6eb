import { FONT_FLAGS, type FontDescription } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';

/** Columns hidden until the user shows them. */
export const FONT_HIDDEN_COLUMNS = ['license', 'containsLongS', 'containsLigatures', 'romanScript', 'hasData', 'fileName', 'updated'] as const;

export function fontDescriptionColumns(t: TFunction): DataTableColumn<FontDescription>[] {
  const yesNo = (key: (typeof FONT_FLAGS)[number] | 'hasData'): DataTableColumn<FontDescription> => ({
    accessorKey: key,
    header: t(`list.${key}`),
    cell: ({ getValue }) => (getValue<boolean>() ? t('common:table.yes') : t('common:table.no')),
    meta: { filterVariant: 'boolean' },
  });
  return [
    { accessorKey: 'name', header: t('list.name') },
    { accessorKey: 'type', header: t('list.type') },
    { accessorKey: 'uri', header: t('list.uri') },
    { accessorKey: 'license', header: t('list.license') },
    ...FONT_FLAGS.map(yesNo),
    yesNo('hasData'),
    { id: 'fileName', accessorFn: (font) => font.fileName ?? '', header: t('list.fileName') },
    { id: 'updated', accessorFn: (font) => font.updated.slice(0, 16).replace('T', ' '), header: t('list.updated') },
    { accessorKey: 'uuid', header: t('list.uuid') },
  ];
}
