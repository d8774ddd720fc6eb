import { Button } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import type { Table } from '@tanstack/react-table';
import { lazy } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { DeferredFloating, type PlainTriggerProps } from '../deferred-floating';
import { headerLabel } from './column-meta';
import type { ColumnChoice } from './column-visibility-popover';

const loadPopover = () => import('./column-visibility-popover');
const ColumnVisibilityPopover = lazy(() => loadPopover().then((m) => ({ default: m.ColumnVisibilityPopover })));

function columnChoices<T>(table: Table<T>): ColumnChoice[] {
  return table
    .getAllLeafColumns()
    .filter((column) => column.getCanHide())
    .map((column) => ({
      id: column.id,
      label: headerLabel(column.columnDef.header, column.id),
      visible: column.getIsVisible(),
      onToggle: column.getToggleVisibilityHandler(),
    }));
}

export function ColumnVisibilityPicker<T>({ table }: { table: Table<T> }) {
  const { t } = useTranslation();
  const button = (props?: PlainTriggerProps) => (
    <Button variant="default" size="xs" leftSection={<IconColumns size={16} aria-hidden />} {...props}>
      {t('table.columns')}
    </Button>
  );
  return (
    <DeferredFloating load={loadPopover} popup="dialog" trigger={button}>
      {(handover) => <ColumnVisibilityPopover choices={columnChoices(table)} handover={handover} target={button()} />}
    </DeferredFloating>
  );
}
