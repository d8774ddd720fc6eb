import { ActionIcon } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { Column } from '@tanstack/react-table';
import { lazy } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { DeferredFloating, type PlainTriggerProps } from '../deferred-floating';

/** The popover and its inputs (the number input is a library of its own) come when a filter is first pointed at or opened. */
const loadPopover = () => import('./column-filter-popover');
const ColumnFilterPopover = lazy(() => loadPopover().then((m) => ({ default: m.ColumnFilterPopover })));

/**
 * A filter button in the column's header cell, opening the column's filter. Keeping the inputs in
 * a popover leaves the header one row high and the table readable; a filled icon marks an active filter.
 */
export function ColumnFilter<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  const { t } = useTranslation();
  const active = column.getIsFiltered();
  const button = (props?: PlainTriggerProps) => (
    <ActionIcon
      size="sm"
      variant={active ? 'filled' : 'subtle'}
      color={active ? undefined : 'gray'}
      aria-label={t('table.filter', { column: label })}
      {...props}
    >
      <IconFilter size={14} />
    </ActionIcon>
  );
  return (
    <DeferredFloating load={loadPopover} popup="dialog" trigger={button}>
      {(handover) => (
        <ColumnFilterPopover
          column={column}
          label={label}
          variant={column.columnDef.meta?.filterVariant ?? 'text'}
          handover={handover}
          target={button()}
        />
      )}
    </DeferredFloating>
  );
}
