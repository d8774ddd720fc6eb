import { editDistance, pairDistance } from './distance.js';
import { normalise, type Normalisation } from './normalise.js';
import { codePointLength, encodeValues } from './symbols.js';
import { splitWords } from './words.js';

/** The measures of a hypothesis (e.g. a recognised text) against a reference (e.g. ground truth). */
export interface TextComparison {
  /** Code points of the reference, after normalisation. */
  referenceLength: number;
  /** Code points of the hypothesis, after normalisation. */
  hypothesisLength: number;
  /** Levenshtein distance over code points. */
  distance: number;
  /** distance / the longer length: 0 (identical) to 1; 0 when both are empty. */
  normalisedDistance: number;
  /** Character error rate: distance / referenceLength (see errorRate). */
  cer: number;
  /** Word error rate: wordDistance / referenceWords (see errorRate). */
  wer: number;
  /** Levenshtein distance over whitespace-separated words. */
  wordDistance: number;
  referenceWords: number;
  hypothesisWords: number;
}

/**
 * Edits per reference symbol. It exceeds 1 when the hypothesis has more insertions than the
 * reference has symbols. An empty reference has no symbols to divide by: the rate is then 0 when
 * the hypothesis is empty too (nothing is wrong) and 1 otherwise (everything in it is wrong), the
 * usual convention of OCR evaluation tools, which keeps the rate finite.
 */
function errorRate(distance: number, referenceLength: number): number {
  if (referenceLength === 0) return distance === 0 ? 0 : 1;
  return distance / referenceLength;
}

/** Character error rate over code points, with the convention of errorRate for an empty reference. */
export function characterErrorRate(reference: string, hypothesis: string): number {
  return errorRate(editDistance(reference, hypothesis), codePointLength(reference));
}

/** Word error rate over whitespace-separated words, with the convention of errorRate. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = splitWords(reference);
  return errorRate(pairDistance(encodeValues(ref, splitWords(hypothesis))), ref.length);
}

/** Every measure of the two texts, both normalised by `choice` first. */
export function compareTexts(reference: string, hypothesis: string, choice: Normalisation = 'exact'): TextComparison {
  const ref = normalise(reference, choice);
  const hyp = normalise(hypothesis, choice);
  const referenceLength = codePointLength(ref);
  const hypothesisLength = codePointLength(hyp);
  const distance = editDistance(ref, hyp);
  const refWords = splitWords(ref);
  const hypWords = splitWords(hyp);
  const wordDistance = pairDistance(encodeValues(refWords, hypWords));
  const longer = Math.max(referenceLength, hypothesisLength);
  return {
    referenceLength,
    hypothesisLength,
    distance,
    normalisedDistance: longer === 0 ? 0 : distance / longer,
    cer: errorRate(distance, referenceLength),
    wer: errorRate(wordDistance, refWords.length),
    wordDistance,
    referenceWords: refWords.length,
    hypothesisWords: hypWords.length,
  };
}
