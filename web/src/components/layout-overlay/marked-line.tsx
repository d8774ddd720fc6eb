import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImageRect } from '../image-viewer/image-viewer';
import { MANUSCRIPT_FONT_FAMILY } from '../manuscript-text/manuscript-text';
import { MARKED_LINE_COLOR } from './layout-style';

/** A line to show above all others (the one a search found), by its box in the image's pixels. */
export interface MarkedLine {
  /** 1-based, as people count lines. */
  number: number;
  text: string;
  box: ImageRect | null;
}

/** Screen pixels, whatever the zoom, as the layout's own shapes. */
const stroke = { vectorEffect: 'non-scaling-stroke', fill: 'none', pointerEvents: 'none' } as const;

/** The marked line's box: a wide dark edge under a bright one, so it stands out on parchment and on ink. */
export function MarkedLineShape({ line }: { line: MarkedLine & { box: ImageRect } }) {
  const { t } = useTranslation('drawings');
  const { x, y, w, h } = line.box;
  return (
    <g data-testid="marked-line" role="img" aria-label={t('layout.markedShape', { n: line.number, text: line.text })}>
      <rect x={x} y={y} width={w} height={h} stroke="#1A1B1E" strokeOpacity={0.7} strokeWidth={7} {...stroke} />
      <rect x={x} y={y} width={w} height={h} stroke={MARKED_LINE_COLOR} strokeWidth={3.5} {...stroke} />
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
