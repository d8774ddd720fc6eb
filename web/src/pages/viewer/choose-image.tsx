import { Box, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { NamedRef } from '@pim/contract';
import { IconPhoto } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ImagePicker } from '../../components/typeahead/image-picker';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';

const viewerPath = (query: Record<string, string>) => `/analyzeimage?${new URLSearchParams(query).toString()}`;

/** One of the caller's images, found by its set, or a IIIF manifest or info.json elsewhere by its address. */
function ChooseImageForm() {
  const { t } = useTranslation('imagesets');
  const navigate = useNavigate();
  const [image, setImage] = useState<NamedRef | null>(null);
  const [uri, setUri] = useState('');
  const openUri = (event: FormEvent) => {
    event.preventDefault();
    if (uri.trim() !== '') void navigate(viewerPath({ uri: uri.trim() }));
  };
  return (
    <Stack gap="xl" maw={640}>
      <Stack gap="sm">
        <ImagePicker image={image} onChange={setImage} />
        <Group>
          <Button leftSection={<IconPhoto size={16} aria-hidden />} disabled={!image} onClick={() => image && void navigate(viewerPath({ id: image.uuid }))}>
            {t('viewer.open')}
          </Button>
        </Group>
      </Stack>
      <form onSubmit={openUri}>
        <Stack gap="sm">
          <TextInput
            label={t('viewer.uri')}
            description={t('viewer.uriHint')}
            placeholder="https://…/manifest.json"
            value={uri}
            onChange={(event) => setUri(event.currentTarget.value)}
          />
          <Box>
            <Button type="submit" variant="default" disabled={uri.trim() === ''}>
              {t('viewer.openUri')}
            </Button>
          </Box>
        </Stack>
      </form>
    </Stack>
  );
}

/** `/pim/analyzeimage` without id or uri: what the screen is for and a way to pick what to look at. */
export function ChooseImage() {
  const { t } = useTranslation('imagesets');
  return (
    <Stack gap="md">
      <Title order={2}>{t('viewer.title')}</Title>
      <Text>{t('viewer.chooseIntro')}</Text>
      <RequireSignIn>
        <ChooseImageForm />
      </RequireSignIn>
    </Stack>
  );
}
