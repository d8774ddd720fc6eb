import type { LayoutTextLine } from './lines-from-layout.js';

type Box = NonNullable<LayoutTextLine['region']>;

/** A line of a transcription about to be replaced that someone gave ground truth. */
export interface CorrectedLine {
  region: Box | null;
  groundTruth: string;
  correctedBy: string | null;
  correctedAt: Date | null;
}

/** How much two boxes overlap: their intersection over their union, 0..1. */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const shared = w * h;
  return shared / (a.w * a.h + b.w * b.h - shared);
}

/** Boxes that overlap less than this are different lines. */
const SAME_PLACE = 0.5;

/**
 * Which new line takes the ground truth of which corrected old one, by new line index: the line
 * in the same place on the page (the pairs that overlap most first, each line used once). Ground
 * truth belongs to a place on the page, not to an index: a new recognition may find more or
 * fewer lines, so indexes shift. A corrected line without a box, or with no new line where it
 * was, is not carried.
 */
export function matchCorrections(corrected: CorrectedLine[], lines: LayoutTextLine[]): Map<number, CorrectedLine> {
  const pairs: { old: number; line: number; score: number }[] = [];
  corrected.forEach((c, old) => {
    if (!c.region) return;
    for (const line of lines) {
      const score = line.region ? overlap(c.region, line.region) : 0;
      if (score >= SAME_PLACE) pairs.push({ old, line: line.lineIndex, score });
    }
  });
  pairs.sort((a, b) => b.score - a.score);
  const taken = new Set<number>();
  const matches = new Map<number, CorrectedLine>();
  for (const pair of pairs) {
    if (taken.has(pair.old) || matches.has(pair.line)) continue;
    taken.add(pair.old);
    matches.set(pair.line, corrected[pair.old]!);
  }
  return matches;
}
