import { ActionIcon, Group, NativeSelect, NumberInput, Popover, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { Column } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';

type RangeValue = [number | null, number | null];

function asRange(value: unknown): RangeValue {
  if (!Array.isArray(value)) return [null, null];
  const [min, max] = value as unknown[];
  return [typeof min === 'number' ? min : null, typeof max === 'number' ? max : null];
}

function toNumberOrNull(value: string | number): number | null {
  return typeof value === 'number' ? value : null;
}

function RangeFilter<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  const { t } = useTranslation();
  const [min, max] = asRange(column.getFilterValue());
  return (
    <Group gap={4} wrap="nowrap">
      <NumberInput
        size="xs"
        w={80}
        hideControls
        placeholder={t('table.min')}
        aria-label={t('table.filterMin', { column: label })}
        value={min ?? ''}
        onChange={(value) => column.setFilterValue([toNumberOrNull(value), max])}
      />
      <NumberInput
        size="xs"
        w={80}
        hideControls
        placeholder={t('table.max')}
        aria-label={t('table.filterMax', { column: label })}
        value={max ?? ''}
        onChange={(value) => column.setFilterValue([min, toNumberOrNull(value)])}
      />
    </Group>
  );
}

function BooleanFilter<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  const { t } = useTranslation();
  const value = column.getFilterValue();
  return (
    <NativeSelect
      size="xs"
      aria-label={t('table.filterIs', { column: label })}
      value={typeof value === 'boolean' ? String(value) : ''}
      onChange={(event) => {
        const choice = event.currentTarget.value;
        column.setFilterValue(choice === '' ? undefined : choice === 'true');
      }}
      data={[
        { value: '', label: t('table.all') },
        { value: 'true', label: t('table.yes') },
        { value: 'false', label: t('table.no') },
      ]}
    />
  );
}

function TextFilter<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  const { t } = useTranslation();
  const value = column.getFilterValue();
  return (
    <TextInput
      size="xs"
      placeholder={t('table.contains')}
      aria-label={t('table.filterContains', { column: label })}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => column.setFilterValue(event.currentTarget.value || undefined)}
    />
  );
}

function ColumnFilterInput<T>({ column, label }: { column: Column<T, unknown>; label: string }) {
  switch (column.columnDef.meta?.filterVariant ?? 'text') {
    case 'range':
      return <RangeFilter column={column} label={label} />;
    case 'boolean':
      return <BooleanFilter column={column} label={label} />;
    default:
      return <TextFilter column={column} label={label} />;
  }
}

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
        >
          <IconFilter size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <ColumnFilterInput column={column} label={label} />
      </Popover.Dropdown>
    </Popover>
  );
}
