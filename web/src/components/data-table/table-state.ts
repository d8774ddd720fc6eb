import type { ColumnFiltersState, SortingState, VisibilityState } from '@tanstack/react-table';
import { z } from 'zod';

export const PAGE_SIZES = [10, 20, 30, 40, 50, 500] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** Everything a user can change about a table; kept in the address so the view is a permalink. */
export interface TableUrlState {
  pageIndex: number;
  pageSize: number;
  sorting: SortingState;
  columnFilters: ColumnFiltersState;
  columnVisibility: VisibilityState;
}

/** Text filters are strings, boolean filters booleans, range filters [min, max] with null for an open end. */
const filterValueSchema = z.union([
  z.string(),
  z.boolean(),
  z.tuple([z.number().nullable(), z.number().nullable()]),
]);

const tableUrlStateSchema = z.strictObject({
  pageIndex: z.number().int().min(0).optional(),
  pageSize: z.literal(PAGE_SIZES).optional(),
  sorting: z.array(z.strictObject({ id: z.string(), desc: z.boolean() })).optional(),
  columnFilters: z.array(z.strictObject({ id: z.string(), value: filterValueSchema })).optional(),
  columnVisibility: z.record(z.string(), z.boolean()).optional(),
});

export function defaultTableState(hiddenColumns: readonly string[] = []): TableUrlState {
  return {
    pageIndex: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    sorting: [],
    columnFilters: [],
    columnVisibility: Object.fromEntries(hiddenColumns.map((id) => [id, false])),
  };
}

export function encodeTableState(state: TableUrlState): string {
  return JSON.stringify(state);
}

function mentionedColumns(state: z.infer<typeof tableUrlStateSchema>): string[] {
  return [
    ...(state.sorting ?? []).map((s) => s.id),
    ...(state.columnFilters ?? []).map((f) => f.id),
    ...Object.keys(state.columnVisibility ?? {}),
  ];
}

/**
 * Reads the `state` parameter. Anything that is not valid JSON of the right shape, or that names
 * a column the table does not have, gives the defaults: a broken permalink still opens the table.
 * Parts left out keep their defaults.
 */
export function decodeTableState(
  raw: string | null,
  defaults: TableUrlState,
  columnIds: readonly string[],
): TableUrlState {
  if (raw === null) return defaults;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return defaults;
  }
  const parsed = tableUrlStateSchema.safeParse(json);
  if (!parsed.success) return defaults;
  const known = new Set(columnIds);
  if (mentionedColumns(parsed.data).some((id) => !known.has(id))) return defaults;
  return {
    pageIndex: parsed.data.pageIndex ?? defaults.pageIndex,
    pageSize: parsed.data.pageSize ?? defaults.pageSize,
    sorting: parsed.data.sorting ?? defaults.sorting,
    columnFilters: parsed.data.columnFilters ?? defaults.columnFilters,
    columnVisibility: parsed.data.columnVisibility ?? defaults.columnVisibility,
  };
}
