import { Badge, Button, Group, Stack, Tabs } from '@mantine/core';
import { IconArrowsDiff, IconPhotoScan } from '@tabler/icons-react';
import { useGroundTruthOfImage, useTranscriptions } from '../../../api/transcriptions';
import { useTranslation } from '../../../i18n/use-translation';
import { ComparisonPanel } from './comparison-panel';
import { DiffControls } from './diff-controls';
import { useTranscriptionLabels } from './labels';
import { CleanText, TranscriptionFields } from './transcription-fields';
import { COMPARISON_TAB, transcriptionTab, useComparison, useLayoutChoice } from './url-state';

/**
 * The image page's tabs for its transcriptions, one each, and the comparison tab; for the
 * page's Tabs.List. Nothing while they load, or when the image has none.
 */
export function TranscriptionTabList({ imageUuid }: { imageUuid: string }) {
  const { t } = useTranslation('comparison');
  const transcriptions = useTranscriptions(imageUuid);
  const labels = useTranscriptionLabels(transcriptions.data);
  const [state] = useComparison();
  if (!transcriptions.data?.length) return null;
  // Which tab holds diff 1 or 2, seen from the tab list; the pressed buttons say it to assistive technology.
  const marker = (uuid: string) => (state.diff1 === uuid ? '1' : state.diff2 === uuid ? '2' : null);
  return (
    <>
      {transcriptions.data.map((transcription) => {
        const mark = marker(transcription.uuid);
        return (
          <Tabs.Tab
            key={transcription.uuid}
            value={transcriptionTab(transcription.uuid)}
            rightSection={mark && <Badge size="xs" circle color={mark === '1' ? 'indigo' : 'grape'} aria-hidden>{mark}</Badge>}
          >
            {labels.get(transcription.uuid)}
          </Tabs.Tab>
        );
      })}
      <Tabs.Tab value={COMPARISON_TAB} leftSection={<IconArrowsDiff size={16} aria-hidden />}>
        {t('tabs.comparison')}
      </Tabs.Tab>
    </>
  );
}

/** The panels of TranscriptionTabList's tabs, for the page's Tabs. */
export function TranscriptionTabPanels({ imageUuid }: { imageUuid: string }) {
  const { t } = useTranslation('drawings');
  const transcriptions = useTranscriptions(imageUuid);
  const groundTruth = useGroundTruthOfImage(imageUuid);
  const labels = useTranscriptionLabels(transcriptions.data);
  const [state, actions] = useComparison();
  const [, layoutChoice] = useLayoutChoice();
  if (!transcriptions.data?.length) return null;
  return (
    <>
      {transcriptions.data.map((transcription) => (
        <Tabs.Panel key={transcription.uuid} value={transcriptionTab(transcription.uuid)} pt="sm">
          <Stack gap="md">
            <DiffControls
              uuid={transcription.uuid}
              imageUuid={imageUuid}
              labels={labels}
              state={state}
              actions={actions}
              groundTruth={groundTruth.data?.find((entry) => entry.transcriptionId === transcription.uuid)}
              groundTruthFailed={groundTruth.isError}
            />
            <Group align="flex-start" gap="xl" wrap="wrap">
              <div style={{ flex: 3, minWidth: 320 }}>
                <CleanText text={transcription.cleanText} />
              </div>
              <Stack gap="sm" align="flex-start" style={{ flex: 2, minWidth: 280 }}>
                <Button variant="light" leftSection={<IconPhotoScan size={16} aria-hidden />} onClick={() => layoutChoice.showOnImage(transcription.uuid)}>
                  {t('layout.showOnImage')}
                </Button>
                <TranscriptionFields transcription={transcription} />
              </Stack>
            </Group>
          </Stack>
        </Tabs.Panel>
      ))}
      <Tabs.Panel value={COMPARISON_TAB} pt="sm">
        <ComparisonPanel
          transcriptions={transcriptions.data}
          labels={labels}
          groundTruth={groundTruth.data}
          groundTruthPending={groundTruth.isPending}
          state={state}
          actions={actions}
        />
      </Tabs.Panel>
    </>
  );
}
