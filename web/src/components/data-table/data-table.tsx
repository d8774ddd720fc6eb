import { Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  functionalUpdate,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type Header,
  type Row,
} from '@tanstack/react-table';
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Spinner } from '../spinner';
import { ColumnFilter } from './column-filter';
import { columnIdOf, headerLabel, withFilterFn, type DataTableColumn } from './column-meta';
import { ColumnVisibilityPicker } from './column-visibility-picker';
import { TablePager } from './table-pager';
import { useTableUrlState } from './use-table-url-state';

const ACTIONS_COLUMN = 'actions';

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: DataTableColumn<T>[];
  data: T[] | undefined;
  loading?: boolean;
  getRowId?: (row: T) => string;
  defaultHiddenColumns?: readonly string[];
  onRowClick?: (row: T) => void;
  renderActions?: (row: T) => ReactNode;
  /** The query parameter holding the table state; only pages with two tables need another name. */
  stateParam?: string;
  /** Buttons shown above the table, left of the column picker. */
  toolbar?: ReactNode;
  /**
   * Server-side mode: `data` is already the current page, sorted and filtered by the server from
   * the table state (read it with useTableUrlState); `rowCount` is the server's total, `pageSizes`
   * the page sizes the server takes when not all of the usual ones.
   */
  serverSide?: { rowCount: number; pageSizes?: readonly number[] };
}

/** The label sorts; it fills the cell so a click anywhere on the header (but the filter button) sorts. */
function SortableHeader<T>({ header }: { header: Header<T, unknown> }) {
  const content = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) return <>{content}</>;
  const sorted = header.column.getIsSorted();
  const Icon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={700} fz="sm" style={{ flex: 1, alignSelf: 'stretch' }}>
      <Group gap={4} wrap="nowrap" h="100%">
        {content}
        <Icon size={14} aria-hidden opacity={sorted ? 1 : 0.4} />
      </Group>
    </UnstyledButton>
  );
}

function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  if (header.isPlaceholder) return null;
  const { column } = header;
  return (
    <Group gap={4} wrap="nowrap" justify="space-between">
      <SortableHeader header={header} />
      {column.getCanFilter() && <ColumnFilter column={column} label={headerLabel(column.columnDef.header, column.id)} />}
    </Group>
  );
}

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  if (sorted === 'asc') return 'ascending';
  return sorted === 'desc' ? 'descending' : 'none';
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, data, loading, onRowClick, renderActions, toolbar } = props;
  const { t } = useTranslation();

  const hasActions = renderActions !== undefined;
  const columns = useMemo(() => {
    const withFilters = props.columns.map(withFilterFn);
    if (!hasActions) return withFilters;
    // The cell reads the current renderActions from the table's meta: a column made anew with each
    // renderActions would be a new component to React, remounting every actions cell on each render.
    const actions: DataTableColumn<T> = {
      id: ACTIONS_COLUMN,
      header: t('table.actions'),
      cell: ({ row, table }) => table.options.meta?.renderActions?.(row.original),
      enableSorting: false,
      enableHiding: false,
      enableColumnFilter: false,
    };
    return [...withFilters, actions];
  }, [props.columns, hasActions, t]);

  const columnIds = useMemo(() => columns.map(columnIdOf), [columns]);
  const [state, setState] = useTableUrlState(props.stateParam ?? 'state', props.defaultHiddenColumns ?? [], columnIds);
  const rows = useMemo(() => data ?? [], [data]);
  const pagination = { pageIndex: state.pageIndex, pageSize: state.pageSize };

  // TanStack Table hands out fresh functions each render; this component is simply not memoized.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: props.getRowId,
    meta: { renderActions },
    state: { pagination, sorting: state.sorting, columnFilters: state.columnFilters, columnVisibility: state.columnVisibility },
    onPaginationChange: (updater) => setState({ ...state, ...functionalUpdate(updater, pagination) }),
    // A new sort or filter starts at the first page, in the same update so the URL changes once.
    onSortingChange: (updater) => setState({ ...state, sorting: functionalUpdate(updater, state.sorting), pageIndex: 0 }),
    onColumnFiltersChange: (updater) =>
      setState({ ...state, columnFilters: functionalUpdate(updater, state.columnFilters), pageIndex: 0 }),
    onColumnVisibilityChange: (updater) =>
      setState({ ...state, columnVisibility: functionalUpdate(updater, state.columnVisibility) }),
    // Otherwise the arrival of the data would reset a page index that came from a permalink.
    autoResetPageIndex: false,
    manualPagination: Boolean(props.serverSide),
    manualSorting: Boolean(props.serverSide),
    manualFiltering: Boolean(props.serverSide),
    rowCount: props.serverSide?.rowCount,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  });

  const visibleColumns = table.getVisibleLeafColumns();
  const pageRows = table.getRowModel().rows;

  const rowProps = (row: Row<T>) =>
    onRowClick
      ? {
          onClick: () => onRowClick(row.original),
          onKeyDown: (event: KeyboardEvent) => {
            // Enter on a button inside the row belongs to that button.
            if (event.key === 'Enter' && event.target === event.currentTarget) onRowClick(row.original);
          },
          tabIndex: 0,
          style: { cursor: 'pointer' },
        }
      : {};

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm">{toolbar}</Group>
        <ColumnVisibilityPicker table={table} />
      </Group>
      {/* The scrollbar stays in sight, so a wide table shows that it goes on to the right. */}
      <Table.ScrollContainer minWidth={600} scrollAreaProps={{ type: 'auto', offsetScrollbars: 'x' }}>
        <Table striped highlightOnHover={Boolean(onRowClick)} aria-label={label} verticalSpacing="xs">
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th
                    key={header.id}
                    aria-sort={header.column.getCanSort() ? ariaSort(header.column.getIsSorted()) : undefined}
                    miw={header.column.columnDef.meta?.minWidth}
                  >
                    <HeaderCell header={header} />
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {loading && (
              <Table.Tr>
                <Table.Td colSpan={visibleColumns.length}>
                  <Spinner />
                </Table.Td>
              </Table.Tr>
            )}
            {!loading && pageRows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={visibleColumns.length}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('table.noRecords')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {!loading &&
              pageRows.map((row) => (
                <Table.Tr key={row.id} {...rowProps(row)}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td
                      key={cell.id}
                      // Buttons in the actions cell must not also open the row.
                      onClick={cell.column.id === ACTIONS_COLUMN ? (event) => event.stopPropagation() : undefined}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager table={table} pageSizes={props.serverSide?.pageSizes} />
    </Stack>
  );
}
