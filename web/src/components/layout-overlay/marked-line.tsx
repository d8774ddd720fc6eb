import { Paper, Text } from '@mantine/core';
import type { LayoutPoints } from '@pim/contract';
import { useTranslation } from '../../i18n/use-translation';
import type { ImageRect } from '../image-viewer/image-viewer';
import { MANUSCRIPT_FONT_FAMILY } from '../manuscript-text/manuscript-text';
import { pointsAttr } from './layout-geometry';
import { MARKED_LINE_COLOR } from './layout-style';

/** A line to show above all others (the one a search found, the one chosen in the annotator), by its box in the image's pixels. */
export interface MarkedLine {
  /** 1-based, as people count lines. */
  number: number;
  text: string;
  box: ImageRect | null;
  /** Its outline, drawn in place of the box when it has one (a line of a layout). */
  outline?: LayoutPoints | null;
}

/** Screen pixels, whatever the zoom, as the layout's own shapes. */
const stroke = { vectorEffect: 'non-scaling-stroke', fill: 'none', pointerEvents: 'none' } as const;

/**
 * The marked line's outline, else its box: a wide dark edge under a bright one, so it stands out
 * on parchment and on ink. Named as a line found by the search unless `label` says otherwise.
 */
export function MarkedLineShape({ line, label }: { line: MarkedLine & { box: ImageRect }; label?: string }) {
  const { t } = useTranslation('drawings');
  const { x, y, w, h } = line.box;
  const edge = (props: { stroke: string; strokeWidth: number; strokeOpacity?: number }) =>
    line.outline && line.outline.length > 2 ? (
      <polygon points={pointsAttr(line.outline)} strokeLinejoin="round" {...props} {...stroke} />
    ) : (
      <rect x={x} y={y} width={w} height={h} {...props} {...stroke} />
    );
  return (
    <g data-testid="marked-line" role="img" aria-label={label ?? t('layout.markedShape', { n: line.number, text: line.text })}>
      {edge({ stroke: '#1A1B1E', strokeOpacity: 0.7, strokeWidth: 7 })}
      {edge({ stroke: MARKED_LINE_COLOR, strokeWidth: 3.5 })}
    </g>
  );
}

/** What the marked line says, under the viewer, with which line it is. */
export function MarkedLinePanel({ line }: { line: MarkedLine }) {
  const { t } = useTranslation('drawings');
  return (
    <Paper
      px="sm"
      py={6}
      withBorder
      data-testid="marked-line-panel"
      style={{ borderLeft: `4px solid ${MARKED_LINE_COLOR}` }}
    >
      <Text size="xs" c="dimmed">
        {t('layout.marked', { n: line.number })}
      </Text>
      <Text style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, fontSize: '1.125rem', whiteSpace: 'pre-wrap' }}>{line.text || t('layout.noText')}</Text>
    </Paper>
  );
}
