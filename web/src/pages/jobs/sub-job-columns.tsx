import { Anchor, Badge, Text } from '@mantine/core';
import type { SubJob } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import type { TFunction } from '../../i18n/translations';
import { formatDateTime } from '../documentimage/comparison/labels';

export type SubJobState = 'notStarted' | 'running' | 'done' | 'failed' | 'stopped';

/**
 * The state of a P2PaLA or Siamese job from its own fields (spec part 2 §3): done, in progress,
 * stopped with errors, not started (no startDate), or started and stopped without finishing.
 */
export function subJobState(job: SubJob): SubJobState {
  if (job.done) return 'done';
  if (job.inProgress) return 'running';
  if (job.errors) return 'failed';
  return job.startDate === null ? 'notStarted' : 'stopped';
}

const STATE_COLORS: Record<SubJobState, string> = { notStarted: 'gray', running: 'blue', done: 'green', failed: 'red', stopped: 'dark' };

/** Columns hidden until the user picks them. */
export const HIDDEN_SUB_JOB_COLUMNS = ['uuid', 'wrapper', 'startDate'] as const;

export function subJobColumns(t: TFunction, language: string): DataTableColumn<SubJob>[] {
  const date = (iso: string | null) => (iso ? formatDateTime(iso, language) : '');
  return [
    { id: 'created', header: t('columns.created'), accessorFn: (job) => date(job.created) },
    { id: 'updated', header: t('columns.updated'), accessorFn: (job) => date(job.updated) },
    {
      id: 'state',
      header: t('columns.state'),
      accessorFn: (job) => t(`subState.${subJobState(job)}`),
      cell: ({ row }) => {
        const state = subJobState(row.original);
        return (
          <Badge color={STATE_COLORS[state]} variant="light">
            {t(`subState.${state}`)}
          </Badge>
        );
      },
    },
    {
      id: 'errors',
      header: t('columns.errors'),
      accessorFn: (job) => job.errors ?? '',
      cell: ({ getValue }) => (
        <Text size="xs" c="red" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {getValue<string>()}
        </Text>
      ),
      meta: { minWidth: 200 },
    },
    {
      id: 'imageSet',
      header: t('columns.imageSet'),
      accessorFn: (job) => job.imageSet?.name ?? '',
      cell: ({ row }) => {
        const set = row.original.imageSet;
        if (!set) return null;
        return (
          <Anchor component={Link} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`} size="sm">
            {set.name}
          </Anchor>
        );
      },
    },
    { id: 'networkSpec', header: t('columns.networkSpec'), accessorFn: (job) => job.networkSpec ?? '' },
    { id: 'startDate', header: t('columns.started'), accessorFn: (job) => date(job.startDate) },
    { accessorKey: 'uuid', header: t('columns.uuid') },
    { accessorKey: 'wrapper', header: t('columns.wrapper') },
  ];
}
