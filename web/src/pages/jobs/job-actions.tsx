import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Job, JobType } from '@pim/contract';
import { IconDownload, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useDownload } from '../../api/download';
import { useJobAction } from '../../api/jobs';
import { useTranslation } from '../../i18n/use-translation';
import { JobDetailsButton } from './job-details';

/** What the types with a download make: an EPUB of the set, or the CSV of a comparison. */
const DOWNLOAD_EXTENSIONS: Partial<Record<JobType, string>> = { PipelineKB2: 'epub', Epubify: 'epub', ScriptCompare: 'csv' };

/** The set's name (what a reader looks for among their downloads), else the job's type, and the uuid. */
export function jobDownloadName(job: Job): string {
  const base = (job.documentImageset?.name ?? job.jobType).replace(/[^\p{L}\p{N}._-]+/gu, '_');
  return `${base}_${job.uuid}.${DOWNLOAD_EXTENSIONS[job.jobType] ?? 'bin'}`;
}

/**
 * How a done job's file is saved: a type whose file is known (an EPUB, a CSV) under the set's
 * name; any other (a remote worker's output, a zip of several files) under the server's name for
 * it, so its extension is the file's own.
 */
function jobDownload(job: Job) {
  return { path: job.downloadUri!, fileName: jobDownloadName(job), nameFromServer: !DOWNLOAD_EXTENSIONS[job.jobType] };
}

/**
 * Details of every job (its settings, what its run noted, who ran it), and the actions its state
 * allows (spec part 2 §4): Cancel before it started, Restart while it runs or after it failed,
 * Download when it is done and made a file.
 */
export function useJobActions() {
  const { t } = useTranslation('jobs');
  const cancel = useJobAction('cancel');
  const restart = useJobAction('restart');
  const { download, busy } = useDownload();

  return useCallback(
    (job: Job) => {
      const pending = (mutation: typeof cancel) => mutation.isPending && mutation.variables === job.uuid;
      const run = (mutation: typeof cancel, done: string) =>
        mutation.mutate(job.uuid, { onSuccess: () => notifications.show({ color: 'green', message: done }) });
      return (
        <Group gap="xs" wrap="nowrap">
          <JobDetailsButton job={job} />
          {job.state === 'notStarted' && (
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconPlayerStop size={14} aria-hidden />}
              loading={pending(cancel)}
              onClick={() => run(cancel, t('actions.cancelled', { type: job.jobType }))}
            >
              {t('actions.cancel')}
            </Button>
          )}
          {(job.state === 'running' || job.state === 'failed') && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} aria-hidden />}
              loading={pending(restart)}
              onClick={() => run(restart, t('actions.restarted', { type: job.jobType }))}
            >
              {t('actions.restart')}
            </Button>
          )}
          {job.state === 'done' && job.downloadUri && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconDownload size={14} aria-hidden />}
              loading={busy === job.downloadUri}
              onClick={() => void download(jobDownload(job))}
            >
              {t('actions.download')}
            </Button>
          )}
        </Group>
      );
    },
    [t, cancel, restart, download, busy],
  );
}
