import { Stack, Title } from '@mantine/core';
import { jobListQuerySchema, type Job } from '@pim/contract';
import { useMemo } from 'react';
import { useJobPage } from '../../api/jobs';
import { columnIdOf } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import { useTableUrlState } from '../../components/data-table/use-table-url-state';
import { NewRecordButton } from '../../components/guarded';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { useJobActions } from './job-actions';
import { HIDDEN_JOB_COLUMNS, jobColumns } from './job-columns';

const rowId = (job: Job) => job.uuid;

/** The page sizes the server pages jobs by (the contract's list query). */
const JOB_PAGE_SIZES = [10, 20, 30, 40, 50] as const;
const MAX_JOB_PAGE_SIZE = Math.max(...JOB_PAGE_SIZES);

function JobsTable() {
  const { t, i18n } = useTranslation('jobs');
  const columns = useMemo(() => jobColumns(t, i18n.language), [t, i18n.language]);
  const columnIds = useMemo(() => [...columns.map(columnIdOf), 'actions'], [columns]);
  // The table's own address state says which page the server is asked for.
  const [state] = useTableUrlState('state', HIDDEN_JOB_COLUMNS, columnIds);
  const [onlyOwnData] = useOwnDataOnly();
  // A permalink from another table may carry a page size the job list does not take.
  const pageSize = jobListQuerySchema.shape.pageSize.safeParse(state.pageSize).success ? state.pageSize : MAX_JOB_PAGE_SIZE;
  const jobs = useJobPage(onlyOwnData, state.pageIndex, pageSize);
  const renderActions = useJobActions();

  if (jobs.isError) return <LoadFailed error={jobs.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <DataTable
      label={t('list.title')}
      columns={columns}
      data={jobs.data?.results}
      loading={jobs.isPending}
      getRowId={rowId}
      defaultHiddenColumns={HIDDEN_JOB_COLUMNS}
      renderActions={renderActions}
      serverSide={{ rowCount: jobs.data?.total ?? 0, pageSizes: JOB_PAGE_SIZES }}
      toolbar={<NewRecordButton to="/job" label={t('list.new')} />}
    />
  );
}

/** `/pim/jobs`: the caller's jobs (an admin's: everyone's), newest first, refreshing while any runs. */
export function JobsPage() {
  const { t } = useTranslation('jobs');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn>
        <JobsTable />
      </RequireSignIn>
    </Stack>
  );
}
