import { Button, FileButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { DESCRIBE_IMAGE_ACCEPT } from '@pim/contract';
import { IconPhotoSearch, IconUpload } from '@tabler/icons-react';
import { describeImage } from '../../api/imagedescription';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { useDescriptionQueue } from './description-queue';
import { ImageCard } from './image-card';

function ImageDescriber() {
  const { t } = useTranslation('imagedescription');
  const { images, progress, running, waiting, add, remove, clear, analyze } = useDescriptionQueue(describeImage);
  return (
    <Stack gap="md">
      <Text c="dimmed" maw="48rem">
        {t('intro')}
      </Text>
      <Group gap="sm">
        <FileButton onChange={add} accept={DESCRIBE_IMAGE_ACCEPT} multiple disabled={running} inputProps={{ 'aria-label': t('choose') }}>
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconUpload size={16} aria-hidden />}>
              {t('choose')}
            </Button>
          )}
        </FileButton>
        <Button
          onClick={() => void analyze()}
          disabled={running || waiting === 0}
          leftSection={running ? <Loader size={14} aria-hidden /> : <IconPhotoSearch size={16} aria-hidden />}
        >
          {waiting > 0 ? t('analyze', { count: waiting }) : t('analyzeNothing')}
        </Button>
        {images.length > 0 && !running && (
          <Button variant="subtle" color="gray" onClick={clear}>
            {t('clear')}
          </Button>
        )}
      </Group>
      {progress && (
        <Text size="sm" aria-live="polite">
          {t('analyzing', progress)}
        </Text>
      )}
      {images.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" aria-label={t('images')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {images.map((image) => (
            <ImageCard key={image.id} image={image} locked={running} onRemove={remove} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** `/pim/imagedescription` (spec part 2 §2): images described one after another by `POST pim/describeimage`. */
export function ImageDescriptionPage() {
  const { t } = useTranslation('imagedescription');
  return (
    <Stack gap="md">
      <Title order={2}>{t('title')}</Title>
      <RequireSignIn>
        <ImageDescriber />
      </RequireSignIn>
    </Stack>
  );
}
