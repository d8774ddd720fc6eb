import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import type { Table } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { headerLabel } from './column-meta';

export function ColumnVisibilityPicker<T>({ table }: { table: Table<T> }) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" size="xs" leftSection={<IconColumns size={16} aria-hidden />}>
          {t('table.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label={t('table.visibleColumns')}>
          {table
            .getAllLeafColumns()
            .filter((column) => column.getCanHide())
            .map((column) => (
              <Checkbox
                key={column.id}
                size="xs"
                label={headerLabel(column.columnDef.header, column.id)}
                checked={column.getIsVisible()}
                onChange={column.getToggleVisibilityHandler()}
              />
            ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
