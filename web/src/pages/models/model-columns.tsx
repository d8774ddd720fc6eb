import { MODEL_KIND_INFO, type Model, type ModelKind } from '@pim/contract';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';
import { UuidCell } from './copy-uuid-button';
import { formatDateTime } from '../documentimage/comparison/labels';
import { formatBytes } from '../../components/format/bytes';

/** Columns hidden until the user picks them: useful now and then, noise in the everyday list. */
export const HIDDEN_MODEL_COLUMNS = ['fileName', 'size', 'created', 'updated'] as const;

/**
 * The spec's columns per kind (Kraken and Tesseract 4: Title, Language; Loghi HTR: Label, Public,
 * Owner; the others: Label), then UUID and the hidden ones. `paged`: the server pages the list
 * and neither sorts nor filters it, so the columns do not offer to.
 */
export function modelColumns(kind: ModelKind, t: TFunction, language: string, paged: boolean): DataTableColumn<Model>[] {
  const info = MODEL_KIND_INFO[kind];
  const columns: DataTableColumn<Model>[] = [{ accessorKey: 'label', header: info.nameField === 'title' ? t('columns.title') : t('columns.label') }];
  if (info.hasLanguage) {
    columns.push({ id: 'language', accessorFn: (model) => (model.language ? model.language.name : ''), header: t('columns.language') });
  }
  if (kind === 'loghihtr') {
    columns.push(
      {
        accessorKey: 'publicModel',
        header: t('columns.publicModel'),
        cell: ({ getValue }) => (getValue<boolean>() ? t('common:table.yes') : t('common:table.no')),
        meta: { filterVariant: 'boolean' },
      },
      { id: 'owner', accessorFn: (model) => model.owner?.name ?? '', header: t('columns.owner') },
    );
  }
  columns.push(
    { accessorKey: 'uuid', header: t('columns.uuid'), cell: ({ getValue }) => <UuidCell uuid={getValue<string>()} /> },
    { accessorKey: 'fileName', header: t('columns.fileName') },
    { accessorKey: 'size', header: t('columns.size'), cell: ({ getValue }) => formatBytes(getValue<number>(), language), meta: { filterVariant: 'range' } },
    { accessorKey: 'created', header: t('columns.created'), cell: ({ getValue }) => formatDateTime(getValue<string>(), language) },
    { accessorKey: 'updated', header: t('columns.updated'), cell: ({ getValue }) => formatDateTime(getValue<string>(), language) },
  );
  if (!paged) return columns;
  return columns.map((column) => ({ ...column, enableSorting: false, meta: { filterVariant: 'none' } }));
}
