import type { TranscriptionLayout } from '@pim/contract';
import { describe, expect, it } from 'vitest';
import { distanceToPolyline, insidePolygon, lineAt, pointsAttr } from './layout-geometry';

type Points = [number, number][];

const line = (index: number, coords: Points | null, baseline: Points | null = null) => ({
  index,
  id: `l${index}`,
  text: `line ${index}`,
  coords,
  baseline,
});

const layout: TranscriptionLayout = {
  transcriptionId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
  width: 1000,
  height: 1000,
  regions: [
    {
      id: 'r',
      type: 'text',
      coords: null,
      lines: [
        // A wide outline holding a smaller one (an initial inside its line).
        line(0, [[0, 0], [500, 0], [500, 100], [0, 100]]),
        line(1, [[10, 10], [60, 10], [60, 90], [10, 90]]),
        // An L-shaped outline: its notch is outside.
        line(2, [[0, 200], [300, 200], [300, 250], [100, 250], [100, 300], [0, 300]]),
        line(3, null, [[0, 500], [400, 520]]),
      ],
    },
  ],
  readingOrder: [0, 1, 2, 3],
};

describe('the geometry of a layout', () => {
  it('writes points as SVG wants them', () => {
    expect(pointsAttr([[1, 2], [3.5, 4]])).toBe('1,2 3.5,4');
  });

  it('tells inside from outside, a notch included', () => {
    const l = layout.regions[0]!.lines[2]!.coords!;
    expect(insidePolygon([50, 280], l)).toBe(true);
    expect(insidePolygon([200, 280], l)).toBe(false);
    expect(insidePolygon([200, 220], l)).toBe(true);
  });

  it('measures the distance to the nearest segment of a line', () => {
    expect(distanceToPolyline([50, 10], [[0, 0], [100, 0]])).toBe(10);
    expect(distanceToPolyline([-30, 40], [[0, 0], [100, 0]])).toBe(50);
    expect(distanceToPolyline([3, 4], [[0, 0]])).toBe(5);
  });

  it('finds the smallest outline holding the point, else the nearest baseline within the tolerance', () => {
    expect(lineAt(layout, [30, 50], 10)?.index).toBe(1);
    expect(lineAt(layout, [300, 50], 10)?.index).toBe(0);
    expect(lineAt(layout, [200, 515], 10)?.index).toBe(3);
    expect(lineAt(layout, [200, 540], 10)).toBeNull();
    expect(lineAt(layout, [200, 280], 10)).toBeNull();
  });
});
