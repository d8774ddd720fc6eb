import { ColorSwatch, Group, Select, Stack, Switch, Text } from '@mantine/core';
import type { DocumentImage, SimpleTextLine, Transcription, TranscriptionLayout } from '@pim/contract';
import { useMarkedTextLine } from '../../api/textlines';
import { useTranscriptionLayout, useTranscriptions } from '../../api/transcriptions';
import { ImageViewOrDraw } from '../../components/drawing-canvas/image-view-or-draw';
import { linesOf } from '../../components/layout-overlay/layout-geometry';
import { LAYOUT_COLORS, type LayoutPart } from '../../components/layout-overlay/layout-style';
import type { MarkedLine } from '../../components/layout-overlay/marked-line';
import { useTranslation } from '../../i18n/use-translation';
import { useTranscriptionLabels } from './comparison/labels';
import { useLayoutChoice, useMarkedLineId, type LayoutChoice, type LayoutChoiceActions } from './comparison/url-state';

/**
 * The image tab: the viewer or the drawing tool, with the layout of one of the image's
 * transcriptions (the one chosen, else the marked line's, else the newest) drawn over the image,
 * or under the drawing, until it is switched off. A line named in the address (`line=`, a search
 * hit's) is marked above the layout, brought into view and its text shown under the viewer.
 */
export function ImageTab({ image }: { image: DocumentImage }) {
  const { t } = useTranslation('drawings');
  const transcriptions = useTranscriptions(image.uuid).data ?? [];
  const [choice, actions] = useLayoutChoice();
  const lineId = useMarkedLineId();
  const markedLine = useMarkedTextLine(lineId);
  const line = markedLine.data?.documentImageId === image.uuid ? markedLine.data : null;
  const wanted = choice.transcription ?? line?.transcriptionId;
  const chosen = transcriptions.find((candidate) => candidate.uuid === wanted) ?? transcriptions.at(-1) ?? null;
  const layout = useTranscriptionLayout(image.uuid, choice.shown && chosen ? chosen.uuid : null);
  const shownLayout = choice.shown ? (layout.data ?? null) : null;
  let note: string | null = null;
  if (markedLine.isError) note = t('layout.markedFailed');
  else if (markedLine.data && !line) note = t('layout.markedElsewhere');
  return (
    <Stack gap="xs">
      {note && (
        <Text size="sm" c="red">
          {note}
        </Text>
      )}
      <ImageViewOrDraw
        image={image}
        layout={shownLayout}
        marked={line && markOf(line)}
        controls={
          chosen && (
            <LayoutControls transcriptions={transcriptions} chosen={chosen} choice={choice} actions={actions} layout={shownLayout} failed={layout.isError} />
          )
        }
      />
    </Stack>
  );
}

function markOf(line: SimpleTextLine): MarkedLine {
  return { number: line.lineIndex + 1, text: line.text, box: line.region };
}

interface LayoutControlsProps {
  transcriptions: Transcription[];
  chosen: Transcription;
  choice: LayoutChoice;
  actions: LayoutChoiceActions;
  layout: TranscriptionLayout | null;
  failed: boolean;
}

/** Show layout on/off, whose layout, and what its colours mean. */
function LayoutControls({ transcriptions, chosen, choice, actions, layout, failed }: LayoutControlsProps) {
  const { t } = useTranslation('drawings');
  const labels = useTranscriptionLabels(transcriptions);
  return (
    <Group gap="md" wrap="wrap">
      <Switch label={t('layout.show')} checked={choice.shown} onChange={(e) => actions.setShown(e.currentTarget.checked)} />
      {transcriptions.length > 1 && (
        <Select
          aria-label={t('layout.of')}
          data={transcriptions.map((transcription) => ({ value: transcription.uuid, label: labels.get(transcription.uuid) ?? transcription.uuid }))}
          value={chosen.uuid}
          onChange={(uuid) => uuid && actions.choose(uuid)}
          allowDeselect={false}
          disabled={!choice.shown}
          w={360}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {choice.shown && failed && (
        <Text size="sm" c="red">
          {t('layout.loadFailed')}
        </Text>
      )}
      {layout && <LayoutSummary layout={layout} />}
    </Group>
  );
}

const PARTS: LayoutPart[] = ['region', 'line', 'baseline'];

/** The colour legend and how many lines there are, or that there is nothing to draw. */
function LayoutSummary({ layout }: { layout: TranscriptionLayout }) {
  const { t } = useTranslation('drawings');
  const lines = linesOf(layout).length;
  if (lines === 0 && !layout.regions.some((region) => region.coords)) {
    return (
      <Text size="sm" c="dimmed">
        {t('layout.none')}
      </Text>
    );
  }
  return (
    <Group gap="sm" role="group" aria-label={t('layout.legend')}>
      {PARTS.map((part) => (
        <Group key={part} gap={4} wrap="nowrap">
          <ColorSwatch color={LAYOUT_COLORS[part]} size={12} aria-hidden />
          <Text size="sm">{t(`layout.${part}`)}</Text>
        </Group>
      ))}
      <Text size="sm" c="dimmed">
        {t('layout.lines', { count: lines })}
      </Text>
    </Group>
  );
}
