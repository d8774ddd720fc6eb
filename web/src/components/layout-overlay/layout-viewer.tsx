import { Paper, Stack, Text } from '@mantine/core';
import type { TranscriptionLayout, TranscriptionLayoutLine } from '@pim/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { ImageViewer, type ViewerOverlay } from '../image-viewer/image-viewer';
import { MANUSCRIPT_FONT_FAMILY } from '../manuscript-text/manuscript-text';
import { lineAt, linesOf } from './layout-geometry';
import { LayoutShapes } from './layout-shapes';
import { MarkedLinePanel, MarkedLineShape, type MarkedLine } from './marked-line';

interface LayoutViewerProps {
  /** The IIIF Image API info.json of the image. */
  infoUrl: string;
  image: { width: number; height: number };
  /** The layout to draw over the image; null draws none. */
  layout: TranscriptionLayout | null;
  height?: string | number;
  /** A line drawn above the layout, the viewer brought to it, and its text shown under the viewer. */
  marked?: MarkedLine | null;
}

/**
 * The zoomable viewer with a transcription's layout over the image. Pointing at a line shows its
 * text under the viewer; a click keeps it there until another line, or no line, is clicked.
 */
export function LayoutViewer({ infoUrl, image, layout, height, marked = null }: LayoutViewerProps) {
  const [hovered, setHovered] = useState<number | null>(null);
  const [chosen, setChosen] = useState<{ layout: TranscriptionLayout | null; index: number | null }>({ layout: null, index: null });
  const lines = useMemo(() => (layout ? linesOf(layout) : []), [layout]);
  // A line chosen in another transcription's layout is not one of these.
  const kept = chosen.layout === layout ? chosen.index : null;
  const active = hovered ?? kept;

  const overlay: ViewerOverlay = {
    width: image.width,
    height: image.height,
    content: (
      <>
        {layout && <LayoutShapes layout={layout} variant="overlay" active={active} onHover={setHovered} />}
        {marked?.box && <MarkedLineShape line={{ ...marked, box: marked.box }} />}
      </>
    ),
    onClick: (point) => {
      // Baselines are thin: a click this near one (1% of the page's height) is on it.
      if (layout) setChosen({ layout, index: lineAt(layout, point, image.height / 100)?.index ?? null });
    },
  };

  return (
    <Stack gap={6}>
      <ImageViewer infoUrl={infoUrl} height={height} overlay={overlay} focus={marked?.box ?? null} />
      {marked && <MarkedLinePanel line={marked} />}
      {layout && lines.length > 0 && <LinePanel line={lines.find((line) => line.index === active) ?? null} count={lines.length} />}
    </Stack>
  );
}

/** What the pointed-at or chosen line says, under the viewer, so it covers none of the page. */
function LinePanel({ line, count }: { line: TranscriptionLayoutLine | null; count: number }) {
  const { t } = useTranslation('drawings');
  return (
    <Paper px="sm" py={6} withBorder mih={62} data-testid="layout-line-panel" aria-live="polite">
      {line ? (
        <>
          <Text size="xs" c="dimmed">
            {t('layout.lineOf', { n: line.index + 1, count })}
          </Text>
          <Text style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, fontSize: '1.125rem', whiteSpace: 'pre-wrap' }} data-testid="layout-line-text">
            {line.text || t('layout.noText')}
          </Text>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('layout.hint')}
        </Text>
      )}
    </Paper>
  );
}
