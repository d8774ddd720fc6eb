import type { TranscriptionLayout, TranscriptionLayoutLine } from '@pim/contract';
import { memo } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { pointsAttr } from './layout-geometry';
import { LAYOUT_COLORS } from './layout-style';

interface LayoutShapesProps {
  layout: TranscriptionLayout;
  /**
   * `overlay`: the layout on the viewer, each line answering the pointer. `reference`: under the
   * drawing tool's own shapes, dashed and deaf to the pointer, so every click still draws.
   */
  variant: 'overlay' | 'reference';
  /** The line to stand out (pointed at or chosen). */
  active?: number | null;
  onHover?: (index: number | null) => void;
}

/** Screen pixels, whatever the zoom: the shapes live in the image's own coordinates (viewBox). */
const stroke = { vectorEffect: 'non-scaling-stroke', strokeLinejoin: 'round', strokeLinecap: 'round' } as const;

/**
 * An imported layout as SVG in the image's pixel coordinates: region outlines, then per line its
 * outline and baseline, each part in its own colour. One group per line, named by its text.
 */
export const LayoutShapes = memo(function LayoutShapes({ layout, variant, active = null, onHover }: LayoutShapesProps) {
  const reference = variant === 'reference';
  return (
    <g data-testid={`layout-${variant}`} pointerEvents={reference ? 'none' : undefined} opacity={reference ? 0.8 : 1}>
      {layout.regions.map(
        (region, i) =>
          region.coords && (
            <polygon
              key={`region-${i}`}
              data-region={region.id ?? i}
              points={pointsAttr(region.coords)}
              fill="none"
              stroke={LAYOUT_COLORS.region}
              strokeWidth={1.5}
              strokeDasharray="8 5"
              pointerEvents="none"
              {...stroke}
            />
          ),
      )}
      {layout.regions.flatMap((region) =>
        region.lines.map((line) => (
          <LineShape key={line.index} line={line} active={line.index === active} dashed={reference} onHover={onHover} />
        )),
      )}
    </g>
  );
});

function LineShape({ line, active, dashed, onHover }: { line: TranscriptionLayoutLine; active: boolean; dashed: boolean; onHover?: (index: number | null) => void }) {
  const { t } = useTranslation('drawings');
  if (!line.coords && !line.baseline) return null;
  const dash = dashed ? '4 3' : undefined;
  return (
    <g
      data-line={line.index}
      // The viewer's overlay element lets the pointer through to the viewer; a line takes it back.
      style={dashed ? undefined : { pointerEvents: 'auto' }}
      role="img"
      aria-label={t('layout.lineName', { n: line.index + 1, text: line.text || t('layout.noText') })}
      onPointerEnter={onHover && (() => onHover(line.index))}
      onPointerLeave={onHover && (() => onHover(null))}
    >
      {line.coords && (
        <polygon
          points={pointsAttr(line.coords)}
          fill={LAYOUT_COLORS.line}
          fillOpacity={active ? 0.28 : 0.07}
          stroke={LAYOUT_COLORS.line}
          strokeWidth={active ? 2.5 : 1.25}
          strokeDasharray={dash}
          {...stroke}
        />
      )}
      {line.baseline && (
        <>
          <polyline points={pointsAttr(line.baseline)} fill="none" stroke={LAYOUT_COLORS.baseline} strokeWidth={active ? 3 : 2} strokeDasharray={dash} {...stroke} />
          {/* A line drawn by its baseline alone is hard to hit: a wider, invisible stroke takes the pointer. */}
          {!line.coords && <polyline points={pointsAttr(line.baseline)} fill="none" stroke="transparent" strokeWidth={14} {...stroke} />}
        </>
      )}
    </g>
  );
}
