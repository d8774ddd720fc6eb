import type { ColumnDef, RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';

/** How a column is filtered: text "contains", a numeric min/max range, a yes/no choice, or not at all. */
export type FilterVariant = 'text' | 'range' | 'boolean' | 'none';

declare module '@tanstack/react-table' {
  // The type parameters must match TanStack's declaration for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    filterVariant?: FilterVariant;
    /** The least width of the column in pixels, so a wide table scrolls rather than squeezing long texts. */
    minWidth?: number;
  }
  interface TableMeta<TData extends RowData> {
    /** The buttons of a row's actions cell; read at render, so the column itself never changes. */
    renderActions?: (row: TData) => ReactNode;
  }
}

/**
 * A column of any value type. TanStack's own examples type column lists this way: a list mixes
 * string, number and boolean columns, and ColumnDef is invariant in its value type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumn<T> = ColumnDef<T, any>;

const FILTER_FNS = { text: 'includesString', range: 'inNumberRange', boolean: 'equals' } as const;

/** Gives every column the filter function that matches its filter variant (text by default). */
export function withFilterFn<T>(column: DataTableColumn<T>): DataTableColumn<T> {
  const variant = column.meta?.filterVariant ?? 'text';
  if (variant === 'none') return { ...column, enableColumnFilter: false };
  return column.filterFn ? column : { ...column, filterFn: FILTER_FNS[variant] };
}

export function columnIdOf<T>(column: DataTableColumn<T>): string {
  if (column.id) return column.id;
  if ('accessorKey' in column && column.accessorKey !== undefined) return String(column.accessorKey);
  throw new Error('Every DataTable column needs an id or an accessorKey');
}

export function headerLabel(header: unknown, fallback: string): string {
  return typeof header === 'string' ? header : fallback;
}
