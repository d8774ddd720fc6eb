import { Group, NumberInput, TextInput } from '@mantine/core';
import type { Column } from '@tanstack/react-table';
import { useTranslation } from '../../i18n/use-translation';
import { PlainSelect } from '../plain-select';
import type { FilterVariant } from './column-meta';

/** What the inputs use of a column: its filter value, whatever the table's rows. */
type FilterColumn = Pick<Column<unknown, unknown>, 'getFilterValue' | 'setFilterValue'>;

type RangeValue = [number | null, number | null];

function asRange(value: unknown): RangeValue {
  if (!Array.isArray(value)) return [null, null];
  const [min, max] = value as unknown[];
  return [typeof min === 'number' ? min : null, typeof max === 'number' ? max : null];
}

function toNumberOrNull(value: string | number): number | null {
  return typeof value === 'number' ? value : null;
}

function RangeFilter({ column, label }: { column: FilterColumn; label: string }) {
  const { t } = useTranslation();
  const [min, max] = asRange(column.getFilterValue());
  return (
    <Group gap={4} wrap="nowrap">
      <NumberInput
        autoFocus
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

function BooleanFilter({ column, label }: { column: FilterColumn; label: string }) {
  const { t } = useTranslation();
  const value = column.getFilterValue();
  return (
    <PlainSelect
      autoFocus
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

function TextFilter({ column, label }: { column: FilterColumn; label: string }) {
  const { t } = useTranslation();
  const value = column.getFilterValue();
  return (
    <TextInput
      autoFocus
      size="xs"
      placeholder={t('table.contains')}
      aria-label={t('table.filterContains', { column: label })}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => column.setFilterValue(event.currentTarget.value || undefined)}
    />
  );
}

/** The inputs of a column's filter, by its variant; the first takes the focus as the filter opens. */
export function ColumnFilterInput({ column, label, variant }: { column: FilterColumn; label: string; variant: FilterVariant }) {
  switch (variant) {
    case 'range':
      return <RangeFilter column={column} label={label} />;
    case 'boolean':
      return <BooleanFilter column={column} label={label} />;
    default:
      return <TextFilter column={column} label={label} />;
  }
}
