import { bitParallelDistance } from './bit-parallel.js';
import { encodeStrings, encodeValues, type EncodedPair } from './symbols.js';

/**
 * Levenshtein distance (insertions, deletions, substitutions each cost 1) over Unicode code
 * points: an astral character such as 𝔄 is one symbol, a combining mark is a symbol of its own.
 * No normalisation is applied; see normalise() for that.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  return pairDistance(encodeStrings(a, b));
}

/** Levenshtein distance over sequences of integer symbols (e.g. word ids). */
export function editDistanceOf(a: readonly number[], b: readonly number[]): number {
  return pairDistance(encodeValues(a, b));
}

/** Distance of an encoded pair, after dropping the common prefix and suffix (they cost nothing). */
export function pairDistance({ a, aLength, b, bLength, size }: EncodedPair): number {
  let start = 0;
  const shorter = Math.min(aLength, bLength);
  while (start < shorter && a[start] === b[start]) start += 1;
  let endA = aLength;
  let endB = bLength;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  // The shorter one is the pattern: fewer blocks, and one word whenever it fits.
  return endA <= endB
    ? bitParallelDistance(a, start, endA, b, start, endB, size)
    : bitParallelDistance(b, start, endB, a, start, endA, size);
}
