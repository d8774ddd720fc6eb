import { Anchor, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { DocumentImageSet } from '@pim/contract';
import { IconBook, IconPlayerPlay } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { Link, useHref, useNavigate } from 'react-router';
import { useCreateJob } from '../../api/jobs';
import { Guarded } from '../../components/guarded';
import { useTranslation } from '../../i18n/use-translation';

/** The job type of 'Create Epub' (spec part 2 §9). */
const EPUB_JOB_TYPE = 'PipelineKB2';

/**
 * 'Create Epub' (spec part 2 §2): queues a PipelineKB2 job for the set; the toast leads to the
 * jobs, where the EPUB is downloaded once the job is done. `refusal`: why the caller may not.
 */
export function CreateEpubButton({ set, refusal }: { set: DocumentImageSet; refusal: string | null }) {
  const { t } = useTranslation('imagesets');
  const create = useCreateJob();
  const navigate = useNavigate();
  // The toasts live outside the router: the link gets its address here and navigates itself.
  const jobsHref = useHref('/jobs');
  const openJobs = (event: MouseEvent, toast: string) => {
    event.preventDefault();
    notifications.hide(toast);
    void navigate('/jobs');
  };
  const start = () =>
    create.mutate(
      { imageSet: set.uuid, jobType: EPUB_JOB_TYPE },
      {
        onSuccess: ({ uuid }) =>
          notifications.show({
            id: uuid,
            color: 'green',
            title: t('epub.queued', { name: set.imageset }),
            message: (
              <Group gap={4}>
                <Text size="sm">{t('epub.downloadLater')}</Text>
                <Anchor href={jobsHref} onClick={(event) => openJobs(event, uuid)} size="sm">
                  {t('epub.openJobs')}
                </Anchor>
              </Group>
            ),
          }),
      },
    );
  return (
    <Guarded reason={refusal}>
      <Button variant="default" leftSection={<IconBook size={16} aria-hidden />} loading={create.isPending} onClick={start}>
        {t('epub.create')}
      </Button>
    </Guarded>
  );
}

/** Any other job on the set: the job form with the set filled in. */
export function NewJobLink({ set, refusal }: { set: DocumentImageSet; refusal: string | null }) {
  const { t } = useTranslation('imagesets');
  const icon = <IconPlayerPlay size={16} aria-hidden />;
  if (refusal !== null) {
    return (
      <Guarded reason={refusal}>
        <Button variant="default" leftSection={icon}>
          {t('epub.newJob')}
        </Button>
      </Guarded>
    );
  }
  return (
    <Button component={Link} to={`/job?imageSet=${encodeURIComponent(set.uuid)}`} variant="default" leftSection={icon}>
      {t('epub.newJob')}
    </Button>
  );
}
