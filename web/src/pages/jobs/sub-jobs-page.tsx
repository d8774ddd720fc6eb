import { Button, Code, Group, Modal, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { SubJob } from '@pim/contract';
import { IconPlayerStop, IconSettings } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useCancelSubJob, useSubJobs, type SubJobKind } from '../../api/jobs';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { HIDDEN_SUB_JOB_COLUMNS, subJobColumns, subJobState, type SubJobState } from './sub-job-columns';

const rowId = (job: SubJob) => job.uuid;

/** A job still waiting or running may be cancelled; the server tells a worker running it to stop. */
const cancellable: ReadonlySet<SubJobState> = new Set(['notStarted', 'running']);

/** The settings the job was made with, shown when asked for: they are long. */
function ConfigModal({ job, onClose }: { job: SubJob; onClose: () => void }) {
  const { t } = useTranslation('jobs');
  return (
    <Modal opened onClose={onClose} title={t('sub.configTitle')} size="lg">
      <Code block>{JSON.stringify(job.config, null, 2)}</Code>
    </Modal>
  );
}

function SubJobsTable({ kind }: { kind: SubJobKind }) {
  const { t, i18n } = useTranslation('jobs');
  const [onlyOwnData] = useOwnDataOnly();
  const jobs = useSubJobs(kind, onlyOwnData);
  const cancel = useCancelSubJob(kind);
  const [config, setConfig] = useState<SubJob | null>(null);
  const columns = useMemo(() => subJobColumns(t, i18n.language), [t, i18n.language]);

  const renderActions = useCallback(
    (job: SubJob) => (
      <Group gap="xs" wrap="nowrap">
        <Button size="xs" variant="default" leftSection={<IconSettings size={14} aria-hidden />} onClick={() => setConfig(job)}>
          {t('sub.config')}
        </Button>
        {cancellable.has(subJobState(job)) && (
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconPlayerStop size={14} aria-hidden />}
            loading={cancel.isPending && cancel.variables === job.uuid}
            onClick={() => cancel.mutate(job.uuid, { onSuccess: () => notifications.show({ color: 'green', message: t('sub.cancelled') }) })}
          >
            {t('actions.cancel')}
          </Button>
        )}
      </Group>
    ),
    [t, cancel],
  );

  if (jobs.isError) return <LoadFailed error={jobs.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <>
      <DataTable
        label={t(`sub.${kind}.title`)}
        columns={columns}
        data={jobs.data}
        loading={jobs.isPending}
        getRowId={rowId}
        defaultHiddenColumns={HIDDEN_SUB_JOB_COLUMNS}
        renderActions={renderActions}
      />
      {config && <ConfigModal job={config} onClose={() => setConfig(null)} />}
    </>
  );
}

/** `/pim/p2palajobs` and `/pim/siamesenetworkjobs`: the P2PaLA or Siamese network jobs' own records. */
export function SubJobsPage({ kind }: { kind: SubJobKind }) {
  const { t } = useTranslation('jobs');
  return (
    <Stack gap="md">
      <Title order={2}>{t(`sub.${kind}.title`)}</Title>
      <RequireSignIn>
        <SubJobsTable kind={kind} />
      </RequireSignIn>
    </Stack>
  );
}
