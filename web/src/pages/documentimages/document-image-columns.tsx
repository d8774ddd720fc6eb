import { Anchor } from '@mantine/core';
import { DOCUMENT_IMAGE_SORTABLE, type DocumentImage, type DocumentImageListQuery } from '@pim/contract';
import type { ColumnFiltersState, SortingState } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';
import { ReadMore } from './read-more';

/**
 * The columns a first look can do without (the Columns picker shows them, and the address keeps
 * the choice): addresses, dates and the finer layout measures. Shown: the image, its size, page,
 * lines, recognised text, language and state.
 */
export const DOCUMENT_IMAGE_HIDDEN_COLUMNS = [
  'uri', 'iiifManifestUri', 'remoteuri', 'layoutXML', 'created', 'updated',
  'pageorder', 'levels', 'types', 'deskewAngle', 'columnCount', 'confidence', 'eadId', 'htrText',
] as const;

/** Room for the columns whose text would otherwise wrap into a narrow strip; the table scrolls instead. */
const MIN_WIDTH: Partial<Record<string, number>> = {
  label: 160, uri: 280, iiifManifestUri: 280, remoteuri: 280, layoutXML: 200, tesseractText: 340, htrText: 340, uploader: 140,
};

const SORTABLE = new Set<string>(DOCUMENT_IMAGE_SORTABLE);
/** The filters the server applies; the other columns offer none rather than one that does nothing. */
const RANGE_FILTERS = { width: ['minWidth', 'maxWidth'], height: ['minHeight', 'maxHeight'] } as const;

function shortDateTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

type Plain = Exclude<keyof DocumentImage, 'uuid' | 'uploader' | 'types' | 'tesseractText' | 'htrText' | 'created' | 'updated'>;

export function documentImageColumns(t: TFunction): DataTableColumn<DocumentImage>[] {
  const yesNo = (value: boolean) => (value ? t('common:table.yes') : t('common:table.no'));
  const plain = (key: Plain): DataTableColumn<DocumentImage> => ({
    accessorKey: key,
    header: key,
    enableSorting: SORTABLE.has(key),
    meta: { filterVariant: key === 'label' ? 'text' : key in RANGE_FILTERS ? 'range' : 'none', minWidth: MIN_WIDTH[key] },
    ...(['broken', 'publish'].includes(key) ? { cell: ({ getValue }) => yesNo(getValue<boolean>()) } : {}),
  });
  const longText = (key: 'tesseractText' | 'htrText'): DataTableColumn<DocumentImage> => ({
    accessorKey: key,
    header: key,
    enableSorting: false,
    meta: { filterVariant: 'none', minWidth: MIN_WIDTH[key] },
    cell: ({ getValue }) => <ReadMore text={getValue<string | null>()} manuscript />,
  });
  const date = (key: 'created' | 'updated'): DataTableColumn<DocumentImage> => ({
    id: key,
    accessorFn: (image) => shortDateTime(image[key]),
    header: key,
    enableSorting: true,
    meta: { filterVariant: 'none' },
  });
  return [
    {
      accessorKey: 'uuid',
      header: 'uuid',
      enableSorting: false,
      meta: { filterVariant: 'none' },
      cell: ({ getValue }) => (
        <Anchor component={Link} size="sm" style={{ whiteSpace: 'nowrap' }} to={`/documentimage?uuid=${encodeURIComponent(getValue<string>())}`}>
          {getValue<string>()}
        </Anchor>
      ),
    },
    plain('label'),
    plain('uri'),
    plain('iiifManifestUri'),
    plain('remoteuri'),
    plain('layoutXML'),
    date('created'),
    date('updated'),
    plain('height'),
    plain('width'),
    plain('broken'),
    plain('pagenumber'),
    plain('pageorder'),
    plain('levels'),
    { id: 'types', accessorFn: (image) => image.types.join(', '), header: 'types', enableSorting: false, meta: { filterVariant: 'none' } },
    plain('deskewAngle'),
    plain('columnCount'),
    plain('linesCount'),
    longText('tesseractText'),
    plain('confidence'),
    plain('languageBest'),
    plain('publish'),
    plain('eadId'),
    {
      id: 'uploader',
      accessorFn: (image) => image.uploader?.name ?? '',
      header: 'uploader',
      enableSorting: false,
      meta: { filterVariant: 'none', minWidth: MIN_WIDTH.uploader },
    },
    longText('htrText'),
  ];
}

function rangeValue(filters: ColumnFiltersState, id: string): [number | null, number | null] {
  const value = filters.find((filter) => filter.id === id)?.value;
  return Array.isArray(value) ? [value[0] ?? null, value[1] ?? null] : [null, null];
}

/** The table's state as the server's query: page, one sort column, the label and range filters. */
export function serverQuery(
  pageIndex: number,
  pageSize: number,
  sorting: SortingState,
  filters: ColumnFiltersState,
): Partial<DocumentImageListQuery> {
  const sort = sorting.find((entry) => SORTABLE.has(entry.id));
  const label = filters.find((filter) => filter.id === 'label')?.value;
  const query: Partial<DocumentImageListQuery> = { page: pageIndex, pageSize };
  if (sort) {
    query.sort = sort.id as DocumentImageListQuery['sort'];
    query.desc = sort.desc;
  }
  if (typeof label === 'string' && label !== '') query.label = label;
  for (const [column, [minKey, maxKey]] of Object.entries(RANGE_FILTERS)) {
    const [min, max] = rangeValue(filters, column);
    if (min !== null) query[minKey] = min;
    if (max !== null) query[maxKey] = max;
  }
  return query;
}
