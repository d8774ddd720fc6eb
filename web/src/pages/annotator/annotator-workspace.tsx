import { Alert, Box, Button, Grid, LoadingOverlay, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useDownload } from '../../api/download';
import { useFieldSet } from '../../api/fieldsets';
import { metadataCsvDownload } from '../../api/metadata';
import { useTranslation } from '../../i18n/use-translation';
import { AnnotatorActions } from './annotator-actions';
import { CanvasViewer } from './canvas-viewer';
import type { ManifestCanvas, ParsedManifest } from './manifest-canvases';
import { ManifestMetadataModal } from './manifest-metadata-modal';
import { MetadataForm } from './metadata-form';
import { overviewPagePath, type AnnotatorScreen } from './paths';
import { SimilarHandwriting } from './similar-handwriting';
import { useTranscriptionChoice } from './transcription-choice';
import { TranscriptionTab } from './transcription-tab';
import { type AnnotatorOptions, useAnnotator } from './use-annotator';

const VIEWER_HEIGHT = 'max(420px, calc(100vh - 180px))';

/** Which manuscript, which field set, which image: above the form. */
function AnnotatorHeader({ manifest, fieldSetId, index, canvas }: { manifest: ParsedManifest; fieldSetId: string; index: number; canvas: ManifestCanvas }) {
  const { t } = useTranslation('annotator');
  // Only the name is wanted here; the fields came from getFields, which reports a missing set.
  const fieldSet = useFieldSet(fieldSetId, { quiet: true });
  return (
    <Stack gap={2}>
      {manifest.label && <Title order={3}>{manifest.label}</Title>}
      {fieldSet.data && (
        <Text size="sm" c="dimmed">
          {t('header.fieldSet', { name: fieldSet.data.name })}
        </Text>
      )}
      <Text size="sm" fw={500} data-testid="image-position">
        {t('header.position', { n: index + 1, total: manifest.canvases.length })}
        {' · '}
        {canvas.label || t('header.untitledCanvas')}
      </Text>
    </Stack>
  );
}

/** The spec's annotator: its other tabs are placeholders. */
function Unavailable() {
  const { t } = useTranslation('annotator');
  return (
    <Text c="dimmed" py="md">
      {t('tabs.unavailable')}
    </Text>
  );
}

/**
 * The viewer of the current canvas on the left; on the right where we are, the actions and the
 * form. The newer screen (`analyzeimagemanualnew`) has the Transcription tab live, and the line
 * chosen there marked on the viewer.
 */
export function AnnotatorWorkspace({ screen, ...options }: AnnotatorOptions & { screen: AnnotatorScreen }) {
  const { t } = useTranslation('annotator');
  const { fields, fieldSetId, manifestUri, manifest, index } = options;
  const annotator = useAnnotator(options);
  const { download, busy: exporting } = useDownload();
  const [metadataOpened, metadataModal] = useDisclosure(false);
  const [tab, setTab] = useState<string | null>('metadata');
  const { canvas, stored } = annotator;
  const transcriptionLive = screen === 'analyzeimagemanualnew';
  const transcriptionChoice = useTranscriptionChoice(canvas.imageServiceId);

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 7, xl: 8 }}>
        <CanvasViewer canvas={canvas} height={VIEWER_HEIGHT} mark={transcriptionLive ? transcriptionChoice.mark : undefined} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5, xl: 4 }}>
        <Stack gap="md">
          <AnnotatorHeader manifest={manifest} fieldSetId={fieldSetId} index={index} canvas={canvas} />
          <AnnotatorActions
            busy={annotator.busy}
            saving={annotator.saving}
            exporting={exporting !== null}
            onPrevious={annotator.previous}
            onSave={annotator.save}
            onNext={annotator.next}
            onExport={() => void download(metadataCsvDownload(manifestUri, fieldSetId))}
            onShowManifestMetadata={metadataModal.open}
            overviewPath={overviewPagePath({ uri: manifestUri, fieldsetid: fieldSetId, imageUri: canvas.imageServiceId, screen })}
          />
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="metadata">{t('tabs.metadata')}</Tabs.Tab>
              <Tabs.Tab value="similar">{t('tabs.similarHandwriting')}</Tabs.Tab>
              <Tabs.Tab value="transcription">{t('tabs.transcription')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="metadata" pt="md">
              {stored.isError ? (
                <Alert color="red">
                  <Stack gap="xs" align="flex-start">
                    <Text size="sm">{t('errors.storedFailed', { message: stored.error.message })}</Text>
                    <Button size="xs" variant="default" onClick={() => void stored.refetch()}>
                      {t('errors.retry')}
                    </Button>
                  </Stack>
                </Alert>
              ) : (
                <Box pos="relative" role="group" aria-label={t('form.label')}>
                  <LoadingOverlay visible={!annotator.loaded} loaderProps={{ 'aria-label': t('form.loadingStored') }} />
                  <MetadataForm imageUri={canvas.imageServiceId} fields={fields} values={annotator.values} errors={annotator.errors} fixed={annotator.fixed} onChange={annotator.setValue} />
                </Box>
              )}
            </Tabs.Panel>
            <Tabs.Panel value="similar" pt="md">
              {/* Asked only while shown: the searches are not run for every image passed by. */}
              {tab === 'similar' && <SimilarHandwriting imageUri={canvas.imageServiceId} fields={fields} values={annotator.values} onCopy={annotator.setValue} />}
            </Tabs.Panel>
            <Tabs.Panel value="transcription" pt="md">
              {!transcriptionLive ? (
                <Unavailable />
              ) : (
                tab === 'transcription' && (
                  <TranscriptionTab imageUri={canvas.imageServiceId} choice={transcriptionChoice} fields={fields} values={annotator.values} onCopy={annotator.setValue} />
                )
              )}
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Grid.Col>
      <ManifestMetadataModal opened={metadataOpened} onClose={metadataModal.close} manifest={manifest} canvas={canvas} />
    </Grid>
  );
}
