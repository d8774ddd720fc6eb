import { describe, expect, it } from 'vitest';
import { type CorrectedLine, matchCorrections } from './ground-truth-carry.js';
import type { LayoutTextLine } from './lines-from-layout.js';

const line = (lineIndex: number, region: LayoutTextLine['region']): LayoutTextLine => ({ lineIndex, text: `line ${lineIndex}`, confidence: null, lowestConf: null, region });
const corrected = (groundTruth: string, region: CorrectedLine['region']): CorrectedLine => ({ region, groundTruth, correctedBy: null, correctedAt: null });

describe('matchCorrections', () => {
  it('gives ground truth to the new line in the same place, whatever its index now', () => {
    const old = [corrected('first', { x: 10, y: 10, w: 500, h: 40 }), corrected('second', { x: 10, y: 60, w: 500, h: 40 })];
    // A new line was found above them: the indexes shift by one, the places do not.
    const fresh = [line(0, { x: 10, y: 0, w: 200, h: 8 }), line(1, { x: 12, y: 12, w: 490, h: 38 }), line(2, { x: 8, y: 58, w: 505, h: 44 })];
    const matches = matchCorrections(old, fresh);
    expect([...matches].map(([index, c]) => [index, c.groundTruth])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
  });

  it('carries nothing to a line elsewhere, a line without a box, or twice to one line', () => {
    const old = [
      corrected('gone', { x: 10, y: 300, w: 500, h: 40 }),
      corrected('no box', null),
      corrected('best', { x: 10, y: 10, w: 500, h: 40 }),
      corrected('second best', { x: 10, y: 20, w: 500, h: 40 }),
    ];
    const fresh = [line(0, { x: 10, y: 10, w: 500, h: 40 }), line(1, null)];
    expect([...matchCorrections(old, fresh)].map(([index, c]) => [index, c.groundTruth])).toEqual([[0, 'best']]);
  });
});
