import { Anchor, Stack, Text, Tooltip } from '@mantine/core';
import type { Job, JobWorker } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';
import { formatDateTime } from '../documentimage/comparison/labels';
import { JobStateCell } from './job-state';

/** Columns hidden until the user picks them. */
export const HIDDEN_JOB_COLUMNS = ['uuid', 'attempts'] as const;

/** The worker's name; its versions (and host) on hover, for the job's provenance. */
function WorkerCell({ worker }: { worker: JobWorker | null }) {
  if (!worker) return null;
  const versions = Object.entries(worker.versions);
  const lines = [...(worker.host ? [worker.host] : []), ...versions.map(([tool, version]) => `${tool} ${version}`)];
  if (lines.length === 0) return <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{worker.name}</Text>;
  return (
    <Tooltip
      multiline
      label={
        <Stack gap={0}>
          {lines.map((line) => (
            <Text key={line} size="xs">
              {line}
            </Text>
          ))}
        </Stack>
      }
    >
      <Text size="sm" td="underline" style={{ textDecorationStyle: 'dotted', cursor: 'help', whiteSpace: 'nowrap' }} tabIndex={0}>
        {worker.name}
      </Text>
    </Tooltip>
  );
}

/**
 * The spec's job fields a person reads (part 2 §3) with the state, who ran it and the owner. The
 * server pages the list, newest first, and neither sorts nor filters it: the columns do not offer to.
 */
export function jobColumns(t: TFunction, language: string): DataTableColumn<Job>[] {
  const date = (iso: string | null) => (iso ? formatDateTime(iso, language) : '');
  const columns: DataTableColumn<Job>[] = [
    { accessorKey: 'jobType', header: t('columns.jobType') },
    {
      id: 'imageSet',
      header: t('columns.imageSet'),
      accessorFn: (job) => job.documentImageset?.name ?? '',
      cell: ({ row }) => {
        const set = row.original.documentImageset;
        if (!set) return null;
        return (
          <Anchor component={Link} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`} size="sm">
            {set.name}
          </Anchor>
        );
      },
      meta: { minWidth: 140 },
    },
    { id: 'state', header: t('columns.state'), cell: ({ row }) => <JobStateCell job={row.original} />, meta: { minWidth: 200 } },
    { accessorKey: 'priority', header: t('columns.priority') },
    { id: 'created', header: t('columns.created'), accessorFn: (job) => date(job.created) },
    { id: 'started', header: t('columns.started'), accessorFn: (job) => date(job.startDate) },
    { id: 'finished', header: t('columns.finished'), accessorFn: (job) => date(job.endDate) },
    { id: 'worker', header: t('columns.worker'), accessorFn: (job) => job.worker?.name ?? '', cell: ({ row }) => <WorkerCell worker={row.original.worker} /> },
    { id: 'owner', header: t('columns.owner'), accessorFn: (job) => job.owner?.name ?? '' },
    { accessorKey: 'uuid', header: t('columns.uuid') },
    { accessorKey: 'attempts', header: t('columns.attempts') },
  ];
  return columns.map((column) => ({ ...column, enableSorting: false, meta: { ...column.meta, filterVariant: 'none' } }));
}
