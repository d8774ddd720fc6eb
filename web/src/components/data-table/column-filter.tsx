import { ActionIcon, Loader, Popover } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { Column } from '@tanstack/react-table';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

/** The inputs (the number input is a library of its own) come when a filter is first pointed at or opened. */
const loadInputs = () => import('./column-filter-input');
const ColumnFilterInput = lazy(() => loadInputs().then((m) => ({ default: m.ColumnFilterInput })));

/**
 * A filter button in the column's header cell, opening the column's filter. Keeping the inputs in
 * a popover leaves the header one row high and the table readable; a filled icon marks an active filter.
 */
export function ColumnFilter<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  const { t } = useTranslation();
  const active = column.getIsFiltered();
  return (
    <Popover position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <ActionIcon
          size="sm"
          variant={active ? 'filled' : 'subtle'}
          color={active ? undefined : 'gray'}
          aria-label={t('table.filter', { column: label })}
          onPointerEnter={() => void loadInputs()}
          onFocus={() => void loadInputs()}
        >
          <IconFilter size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Suspense fallback={<Loader size="xs" aria-label={t('loading')} />}>
          <ColumnFilterInput column={column} label={label} variant={column.columnDef.meta?.filterVariant ?? 'text'} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
