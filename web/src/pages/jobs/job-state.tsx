import { Badge, Progress, Stack, Text } from '@mantine/core';
import type { Job, JobState } from '@pim/contract';
import { useTranslation } from '../../i18n/use-translation';

const STATE_COLORS: Record<JobState, string> = {
  notStarted: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'dark',
};

/** What a queued job waits for: its place in the queue, or a worker for its type that nobody runs yet. */
function Queued({ job }: { job: Job }) {
  const { t } = useTranslation('jobs');
  if (job.waitingFor !== null) {
    return (
      <Stack gap={2} align="flex-start">
        <Badge color="yellow" variant="light">
          {t('state.waiting')}
        </Badge>
        <Text size="xs">{t('state.waitingFor', { type: job.jobType })}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={STATE_COLORS.notStarted} variant="light">
        {t('state.queued')}
      </Badge>
      {job.jobOrder !== null && <Text size="xs">{t('state.place', { place: job.jobOrder, count: job.jobOrder })}</Text>}
    </Stack>
  );
}

/** A bar with "12 of 40 pages" and the executor's latest message; without a total it only says how many are done. */
function Running({ job }: { job: Job }) {
  const { t } = useTranslation('jobs');
  const progress = job.progress;
  const total = progress?.total ?? null;
  const done = progress?.done ?? 0;
  const counted = total !== null && total > 0;
  const label = counted ? t('state.progress', { done, total, count: total }) : t('state.progressUncounted', { done, count: done });
  return (
    <Stack gap={4} miw={180}>
      <Badge color={STATE_COLORS.running} variant="light">
        {t('state.running')}
      </Badge>
      <Progress
        value={counted ? Math.min(100, (done / total) * 100) : 100}
        striped={!counted}
        animated={!counted}
        size="sm"
        aria-label={label}
      />
      <Text size="xs">{label}</Text>
      {progress?.message && (
        <Text size="xs" c="dimmed">
          {progress.message}
        </Text>
      )}
    </Stack>
  );
}

/** The job's state as a person reads it (spec part 2 §4), with what goes with it: place, progress or error. */
export function JobStateCell({ job }: { job: Job }) {
  const { t } = useTranslation('jobs');
  if (job.state === 'notStarted') return <Queued job={job} />;
  if (job.state === 'running') return <Running job={job} />;
  const badge = (
    <Badge color={STATE_COLORS[job.state]} variant="light">
      {t(`state.${job.state}`)}
    </Badge>
  );
  if (job.state !== 'failed' || !job.error) return badge;
  return (
    <Stack gap={2} align="flex-start" maw={420}>
      {badge}
      {/* The error in full: it is what tells the user what to change. */}
      <Text size="xs" c="red" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {job.error}
      </Text>
    </Stack>
  );
}
