import { describe, expect, it } from 'vitest';
import { fittedScale, imagePoint, requestedSize } from './geometry';

describe('drawing surface geometry', () => {
  it('fits the page into 1200 px of height or the width, whichever is tighter, times 0.91', () => {
    expect(fittedScale({ width: 1000, height: 2400 }, 2000)).toBeCloseTo(0.5 * 0.91);
    expect(fittedScale({ width: 4000, height: 1200 }, 1000)).toBeCloseTo(0.25 * 0.91);
    expect(fittedScale({ width: 100, height: 600 }, 0)).toBeCloseTo(2 * 0.91);
  });

  it('turns a click into whole image pixels, kept on the image', () => {
    expect(imagePoint({ x: 110, y: 70 }, { left: 10, top: 20 }, 0.5, { width: 400, height: 300 })).toEqual([200, 100]);
    expect(imagePoint({ x: 10.3, y: 20.4 }, { left: 10, top: 20 }, 0.25, { width: 400, height: 300 })).toEqual([1, 2]);
    expect(imagePoint({ x: 0, y: 999 }, { left: 10, top: 20 }, 0.5, { width: 400, height: 300 })).toEqual([0, 300]);
  });

  it('asks for as many pixels as the page is shown with, at most the whole image', () => {
    expect(requestedSize({ width: 3000, height: 4000 }, 1)).toEqual({ width: 819, height: 1092 });
    expect(requestedSize({ width: 3000, height: 4000 }, 2)).toEqual({ width: 1638, height: 2184 });
    expect(requestedSize({ width: 60, height: 40 }, 2)).toEqual({ width: 60, height: 40 });
  });
});
