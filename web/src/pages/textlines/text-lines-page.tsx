import { Anchor, Button, Stack, Title } from '@mantine/core';
import type { DifferentTextLine } from '@pim/contract';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDifferentTextLines } from '../../api/textlines';
import { columnIdOf } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import { useTableUrlState } from '../../components/data-table/use-table-url-state';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { textLineColumns } from './text-line-columns';

const rowId = (line: DifferentTextLine) => line.uuid;

function correctPath(query: string, value: string): string {
  return `/pimsimpletextline?${query}=${encodeURIComponent(value)}`;
}

function CorrectLink({ line }: { line: DifferentTextLine }) {
  const { t } = useTranslation('textlines');
  return (
    <Anchor component={Link} size="sm" to={correctPath('uuid', line.uuid)} aria-label={t('different.correctLine', { line: line.lineIndex + 1, label: line.documentImageLabel })}>
      {t('different.correct')}
    </Anchor>
  );
}

function DifferentTextLinesTable({ parentuuid }: { parentuuid: string | null }) {
  const { t, i18n } = useTranslation('textlines');
  const columns = useMemo(() => textLineColumns(t, i18n.language), [t, i18n.language]);
  const columnIds = useMemo(() => [...columns.map(columnIdOf), 'actions'], [columns]);
  // The same address state the table keeps; the server pages from it.
  const [state] = useTableUrlState('state', [], columnIds);
  const page = useDifferentTextLines({ page: state.pageIndex, pageSize: state.pageSize, ...(parentuuid ? { parentuuid } : {}) });
  const correctAll = parentuuid ? correctPath('parentuuid', parentuuid) : '/pimsimpletextline';
  return (
    <DataTable
      label={t('different.title')}
      columns={columns}
      data={page.data?.results}
      loading={page.isPending}
      getRowId={rowId}
      renderActions={(line) => <CorrectLink line={line} />}
      serverSide={{ rowCount: page.data?.total ?? 0 }}
      toolbar={
        <Button component={Link} to={correctAll} variant="light" size="xs">
          {t('different.correctLines')}
        </Button>
      }
    />
  );
}

export function TextLinesPage() {
  const { t } = useTranslation('textlines');
  const [searchParams] = useSearchParams();
  return (
    <Stack gap="md">
      <Title order={2}>{t('different.title')}</Title>
      <RequireSignIn>
        <DifferentTextLinesTable parentuuid={searchParams.get('parentuuid')} />
      </RequireSignIn>
    </Stack>
  );
}
