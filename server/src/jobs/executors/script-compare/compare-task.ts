import { type CharacterConfusion, characterConfusions, compareTexts, normalise, type TextComparison } from '@pim/contract';

/** This module, for the worker pool: the comparison runs in a thread, as a long page takes a while to align. */
export const COMPARE_TASK = new URL(import.meta.url);

/**
 * Line breaks and runs of spaces do not count: sources break lines differently (hOCR, ALTO and
 * PAGE of one page rarely agree on them), and the report is about the characters read.
 */
export const COMPARE_NORMALISATION = 'collapseWhitespace' as const;

export interface ComparedTexts {
  comparison: TextComparison;
  /** Every character error of an optimal alignment, with its count. */
  confusions: CharacterConfusion[];
}

export function compareForReport(reference: string, hypothesis: string): ComparedTexts {
  return {
    comparison: compareTexts(reference, hypothesis, COMPARE_NORMALISATION),
    confusions: characterConfusions(normalise(reference, COMPARE_NORMALISATION), normalise(hypothesis, COMPARE_NORMALISATION), Infinity),
  };
}
