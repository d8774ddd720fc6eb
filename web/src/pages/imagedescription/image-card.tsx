import { ActionIcon, Badge, Box, Center, Group, Image, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconPhotoOff, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { DescribedImage } from './description-queue';
import { DescriptionText } from './description-text';

/** Thumbnails at most 10rem by 10rem (spec part 2 §9). */
const THUMBNAIL = '10rem';

function StatusBadge({ image }: { image: DescribedImage }) {
  const { t } = useTranslation('imagedescription');
  const failed = image.status === 'done' && image.outcome?.ok === false;
  const color = failed ? 'red' : { waiting: 'gray', uploading: 'blue', done: 'green' }[image.status];
  return (
    <Badge color={color} variant="light" styles={{ root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
      {t(`status.${failed ? 'failed' : image.status}`)}
    </Badge>
  );
}

function Thumbnail({ image }: { image: DescribedImage }) {
  const { t } = useTranslation('imagedescription');
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <Center w={THUMBNAIL} h="6rem" bg="var(--mantine-color-gray-1)" style={{ borderRadius: 'var(--mantine-radius-sm)', flex: 'none' }}>
        <Stack gap={4} align="center">
          <IconPhotoOff size={28} aria-hidden color="var(--mantine-color-gray-6)" />
          <Text size="xs" c="dimmed">
            {t('noThumbnail')}
          </Text>
        </Stack>
      </Center>
    );
  }
  return (
    <Box w={THUMBNAIL} style={{ flex: 'none' }}>
      <Image
        src={image.preview}
        alt={t('thumbnail', { name: image.file.name })}
        maw={THUMBNAIL}
        mah={THUMBNAIL}
        w="auto"
        fit="contain"
        radius="sm"
        onError={() => setBroken(true)}
        style={{ border: '1px solid var(--mantine-color-gray-3)' }}
      />
    </Box>
  );
}

/** One chosen image: its thumbnail, its name and state, then a small loader until its description arrives. */
export function ImageCard({ image, locked, onRemove }: { image: DescribedImage; locked: boolean; onRemove: (id: number) => void }) {
  const { t } = useTranslation('imagedescription');
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={image.file.name}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Thumbnail image={image} />
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {image.file.name}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <StatusBadge image={image} />
              {!locked && image.status !== 'uploading' && (
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('remove', { name: image.file.name })} onClick={() => onRemove(image.id)}>
                  <IconX size={14} />
                </ActionIcon>
              )}
            </Group>
          </Group>
          {image.status === 'done' && image.outcome ? (
            <DescriptionText text={image.outcome.text} failed={!image.outcome.ok} />
          ) : (
            <Group gap="xs">
              <Loader size="sm" aria-label={t('working', { name: image.file.name })} type={image.status === 'waiting' ? 'dots' : 'oval'} />
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
