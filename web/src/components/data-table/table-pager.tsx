import { ActionIcon, Group, Text } from '@mantine/core';
import {
  IconChevronLeft,
  IconChevronRight,
  IconChevronsLeft,
  IconChevronsRight,
} from '@tabler/icons-react';
import type { Table } from '@tanstack/react-table';
import { useTranslation } from '../../i18n/use-translation';
import { PlainSelect } from '../plain-select';
import { PAGE_SIZES } from './table-state';

export function TablePager<T>({ table, pageSizes = PAGE_SIZES }: { table: Table<T>; pageSizes?: readonly number[] }) {
  const { t } = useTranslation();
  const { pageIndex, pageSize } = table.getState().pagination;
  // The filtered count for client-side tables, the server's total for server-side ones.
  const count = table.getRowCount();
  const pageCount = Math.max(table.getPageCount(), 1);
  const from = count === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min((pageIndex + 1) * pageSize, count);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {t('table.range', { from, to, count })}
      </Text>
      <Group gap="xs">
        <PlainSelect
          size="xs"
          label={t('table.rowsPerPage')}
          styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
          value={String(pageSize)}
          onChange={(event) => table.setPageSize(Number(event.currentTarget.value))}
          data={pageSizes.map(String)}
        />
        <ActionIcon variant="default" aria-label={t('table.firstPage')} onClick={() => table.firstPage()} disabled={!table.getCanPreviousPage()}>
          <IconChevronsLeft size={16} />
        </ActionIcon>
        <ActionIcon variant="default" aria-label={t('table.previousPage')} onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Text size="sm">{t('table.page', { page: pageIndex + 1, pageCount })}</Text>
        <ActionIcon variant="default" aria-label={t('table.nextPage')} onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
          <IconChevronRight size={16} />
        </ActionIcon>
        <ActionIcon variant="default" aria-label={t('table.lastPage')} onClick={() => table.lastPage()} disabled={!table.getCanNextPage()}>
          <IconChevronsRight size={16} />
        </ActionIcon>
      </Group>
    </Group>
  );
}
