import { lastColumnScores } from './bit-parallel.js';

/** One step of an alignment: a pair of symbols, or a symbol of one side only. */
export const EQUAL = 0;
export const SUBSTITUTE = 1;
export const DELETE = 2; // a reference symbol missing from the hypothesis
export const INSERT = 3; // a hypothesis symbol not in the reference

// Pieces up to this many matrix cells are aligned by the plain dynamic programme.
const DP_CELLS = 4096;

/**
 * An optimal alignment of two id sequences as one step code per position, in order. Hirschberg's
 * divide and conquer: the hypothesis is cut in the middle; the last column of the forward matrix
 * (reference prefixes against its first half) and of the backward one (reversed suffixes against
 * its reversed second half) come from the bit-parallel sweep, and the reference is cut where
 * their sum is least, which lies on an optimal path. Time O(mn/32) twice over, memory linear.
 */
export function alignIds(a: Int32Array, b: Int32Array, size: number): number[] {
  const steps: number[] = [];
  alignPiece(a, b, size, steps);
  return steps;
}

function alignPiece(a: Int32Array, b: Int32Array, size: number, steps: number[]): void {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  repeat(steps, EQUAL, prefix);
  alignCore(a.subarray(prefix, a.length - suffix), b.subarray(prefix, b.length - suffix), size, steps);
  repeat(steps, EQUAL, suffix);
}

function alignCore(a: Int32Array, b: Int32Array, size: number, steps: number[]): void {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) {
    repeat(steps, DELETE, m);
    repeat(steps, INSERT, n);
    return;
  }
  if (m <= 1 || n <= 1 || (m + 1) * (n + 1) <= DP_CELLS) {
    alignByMatrix(a, b, steps);
    return;
  }
  const mid = n >> 1;
  const forward = lastColumnScores(a, b.subarray(0, mid), size);
  const backward = lastColumnScores(reversed(a), reversed(b.subarray(mid)), size);
  let cut = 0;
  let best = Infinity;
  for (let i = 0; i <= m; i += 1) {
    const total = forward[i]! + backward[m - i]!;
    if (total < best) {
      best = total;
      cut = i;
    }
  }
  alignPiece(a.subarray(0, cut), b.subarray(0, mid), size, steps);
  alignPiece(a.subarray(cut), b.subarray(mid), size, steps);
}

/** The full matrix and a trace back from the corner; only for small pieces or a side of length one. */
function alignByMatrix(a: Int32Array, b: Int32Array, steps: number[]): void {
  const m = a.length;
  const n = b.length;
  const width = n + 1;
  const d = new Int32Array((m + 1) * width);
  for (let j = 0; j <= n; j += 1) d[j] = j;
  for (let i = 1; i <= m; i += 1) {
    const row = i * width;
    d[row] = i;
    for (let j = 1; j <= n; j += 1) {
      const diagonal = d[row - width + j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      d[row + j] = Math.min(diagonal, d[row - width + j]! + 1, d[row + j - 1]! + 1);
    }
  }
  // Among optimal paths, a match first, then a deletion or insertion, then a substitution: where
  // both cost the same, "the mat" against "mat now" keeps "mat" equal rather than substituting
  // two words, so a diff shows what the texts share.
  const back: number[] = [];
  let i = m;
  let j = n;
  while (i > 0 || j > 0) {
    const here = d[i * width + j]!;
    const diagonal = i > 0 && j > 0 ? d[(i - 1) * width + j - 1]! : -1;
    if (diagonal === here && a[i - 1] === b[j - 1]) {
      back.push(EQUAL);
      i -= 1;
      j -= 1;
    } else if (i > 0 && here === d[(i - 1) * width + j]! + 1) {
      back.push(DELETE);
      i -= 1;
    } else if (j > 0 && here === d[i * width + j - 1]! + 1) {
      back.push(INSERT);
      j -= 1;
    } else {
      back.push(SUBSTITUTE);
      i -= 1;
      j -= 1;
    }
  }
  for (let k = back.length - 1; k >= 0; k -= 1) steps.push(back[k]!);
}

function reversed(values: Int32Array): Int32Array {
  const out = new Int32Array(values.length);
  for (let i = 0, last = values.length - 1; i <= last; i += 1) out[i] = values[last - i]!;
  return out;
}

function repeat(steps: number[], step: number, count: number): void {
  for (let k = 0; k < count; k += 1) steps.push(step);
}
