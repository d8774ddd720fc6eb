import { Alert, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useImageSet } from '../../api/imagesets';
import { RequireSignIn } from '../../app/require-sign-in';
import { Spinner } from '../../components/spinner';

function ImageSetDetail({ uuid }: { uuid: string }) {
  const { t } = useTranslation('imagesets');
  const imageSet = useImageSet(uuid);
  if (imageSet.isPending) return <Spinner />;
  if (imageSet.isError) return <Alert color="red">{t('detail.loadFailed')}</Alert>;
  return (
    <Stack gap="xs">
      <Title order={2}>{imageSet.data.imageset}</Title>
      {imageSet.data.prettyName && <Text c="dimmed">{imageSet.data.prettyName}</Text>}
      <Text size="sm" c="dimmed">
        {t('detail.comingLater')}
      </Text>
    </Stack>
  );
}

export function ImageSetPage() {
  const { t } = useTranslation('imagesets');
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  return (
    <Stack gap="md">
      <Group>
        <Anchor component={Link} to="/imagesets">
          <Group gap={4}>
            <IconArrowLeft size={16} aria-hidden />
            {t('detail.back')}
          </Group>
        </Anchor>
      </Group>
      {uuid ? (
        <RequireSignIn>
          <ImageSetDetail uuid={uuid} />
        </RequireSignIn>
      ) : (
        <Alert color="red">{t('detail.missingUuid')}</Alert>
      )}
    </Stack>
  );
}
