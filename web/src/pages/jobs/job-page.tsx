import { Alert, Stack } from '@mantine/core';
import type { NamedRef } from '@pim/contract';
import { useImageSet } from '../../api/imagesets';
import { useJobTypes } from '../../api/jobs';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
import { LoadFailed } from '../users/load-failed';
import { JobForm } from './job-form';

/** The form once the job types (and where each runs) are known. */
function NewJob({ imageSet }: { imageSet: NamedRef | null }) {
  const { t } = useTranslation('jobs');
  const types = useJobTypes();
  if (types.isPending) return <Spinner />;
  if (types.isError) return <LoadFailed error={types.error} forbidden={t('form.typesFailed')} failed={t('form.typesFailed')} />;
  return <JobForm types={types.data} imageSet={imageSet} />;
}

/** `?imageSet={uuid}`: the set the image set page sent the user here for, filled in by its name. */
function NewJobOnSet({ uuid }: { uuid: string }) {
  const { t } = useTranslation('jobs');
  const set = useImageSet(uuid);
  if (set.isPending) return <Spinner />;
  if (set.isError) {
    return (
      <Stack gap="md">
        <Alert color="yellow">{t('form.setNotLoaded')}</Alert>
        <NewJob imageSet={null} />
      </Stack>
    );
  }
  return <NewJob imageSet={{ uuid: set.data.uuid, name: set.data.imageset }} />;
}

/** `/pim/job[?imageSet={uuid}]`: creates a job; the address may name the set it is for. */
export function JobPage() {
  const { t } = useTranslation('jobs');
  return (
    <EditPage
      param="imageSet"
      back={{ to: '/jobs', label: t('form.back') }}
      newTitle={t('form.title')}
      updateTitle={t('form.title')}
      saved={(uuid) => <NewJobOnSet uuid={uuid} />}
      fresh={<NewJob imageSet={null} />}
    />
  );
}
