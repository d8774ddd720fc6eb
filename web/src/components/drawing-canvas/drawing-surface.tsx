import type { DrawingKind, DrawingLabel, DrawingPoint, DrawingShape, TranscriptionLayout } from '@pim/contract';
import { memo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { pointsAttr } from '../layout-overlay/layout-geometry';
import { LayoutShapes } from '../layout-overlay/layout-shapes';
import { imagePoint, type ImageSize } from './geometry';
import { LABEL_COLORS } from './label-style';

interface DrawingSurfaceProps {
  image: ImageSize & { label: string };
  /** The page's pixels as an object URL; null while loading or when they could not be had. */
  imageUrl: string | null;
  scale: number;
  shapes: DrawingShape[];
  draft: DrawingPoint[];
  kind: DrawingKind;
  label: DrawingLabel;
  /** An imported layout to draw under the shapes, for reference only; null for none. */
  layout: TranscriptionLayout | null;
  onPoint: (point: DrawingPoint) => void;
}

const STROKE = 2;
const POINT_RADIUS = 4;

/**
 * The page with the shapes over it, as SVG in the image's own pixel coordinates (viewBox), shown
 * at `scale`, and an imported layout between the two that the user's shapes never merge with.
 * Strokes and point marks keep their screen size whatever the scale.
 */
export function DrawingSurface({ image, imageUrl, scale, shapes, draft, kind, label, layout, onPoint }: DrawingSurfaceProps) {
  const { t } = useTranslation('drawings');
  const svg = useRef<SVGSVGElement>(null);
  const [pointer, setPointer] = useState<DrawingPoint | null>(null);
  const at = (e: MouseEvent) => imagePoint({ x: e.clientX, y: e.clientY }, svg.current!.getBoundingClientRect(), scale, image);

  return (
    <svg
      ref={svg}
      role="group"
      aria-label={t('surface', { label: image.label })}
      width={image.width * scale}
      height={image.height * scale}
      viewBox={`0 0 ${image.width} ${image.height}`}
      style={{ display: 'block', cursor: 'crosshair', background: '#f1ede4', boxShadow: '0 2px 12px rgba(0,0,0,0.45)' }}
      onClick={(e) => onPoint(at(e))}
      onMouseMove={(e) => draft.length > 0 && setPointer(at(e))}
      onMouseLeave={() => setPointer(null)}
    >
      {imageUrl && <image href={imageUrl} width={image.width} height={image.height} preserveAspectRatio="none" aria-hidden />}
      {layout && <LayoutShapes layout={layout} variant="reference" />}
      <ShapeMarks shapes={shapes} />
      {draft.length > 0 && <DraftMark points={draft} pointer={pointer} kind={kind} color={LABEL_COLORS[label]} radius={POINT_RADIUS / scale} />}
    </svg>
  );
}

/** The finished shapes; kept apart so following the pointer does not redraw them all. */
const ShapeMarks = memo(function ShapeMarks({ shapes }: { shapes: DrawingShape[] }) {
  const { t } = useTranslation('drawings');
  return shapes.map((shape, i) => (
    <ShapeMark key={shape.id} shape={shape} name={t('shapeName', { kind: t(`kinds.${shape.kind}`), n: i + 1, label: t(`labels.${shape.label}`) })} />
  ));
});

function ShapeMark({ shape, name }: { shape: DrawingShape; name: string }) {
  const color = LABEL_COLORS[shape.label];
  const common = { role: 'img', 'aria-label': name, stroke: color, strokeWidth: STROKE, vectorEffect: 'non-scaling-stroke', strokeLinejoin: 'round' } as const;
  return shape.kind === 'polygon' ? (
    <polygon {...common} points={pointsAttr(shape.points)} fill={color} fillOpacity={0.18} />
  ) : (
    <polyline {...common} points={pointsAttr(shape.points)} fill="none" strokeLinecap="round" />
  );
}

/** The shape being drawn: its points, its outline so far, and where the next point would go. */
function DraftMark({ points, pointer, kind, color, radius }: { points: DrawingPoint[]; pointer: DrawingPoint | null; kind: DrawingKind; color: string; radius: number }) {
  const last = points[points.length - 1]!;
  const stroke = { stroke: color, strokeWidth: STROKE, vectorEffect: 'non-scaling-stroke', fill: 'none' } as const;
  return (
    <g data-testid="draft-shape" pointerEvents="none">
      <polyline {...stroke} points={pointsAttr(points)} />
      {pointer && <polyline {...stroke} strokeDasharray="6 4" points={pointsAttr(kind === 'polygon' && points.length > 1 ? [last, pointer, points[0]!] : [last, pointer])} />}
      {points.map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r={radius} fill={i === 0 ? color : '#fff'} stroke={color} strokeWidth={STROKE} vectorEffect="non-scaling-stroke" />
      ))}
    </g>
  );
}
