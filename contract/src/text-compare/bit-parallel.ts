/**
 * Levenshtein distance by bit vectors: Myers (1999) in Hyyrö's (2003) formulation for several
 * words. The pattern is cut into blocks of 32 symbols; each block is swept over the whole text
 * with its vertical deltas (Pv/Mv: +1/-1 between rows of one column) in two registers, and the
 * horizontal deltas at the block's bottom row are kept per text position to feed the next block.
 * Memory is linear: one Int8Array over the text and a match table over the alphabet.
 *
 * Inputs are symbol ids (see symbols.ts) smaller than `size`.
 */

const WORD = 32;

// Scratch tables kept between calls. `matches` is all zeros between calls: each block sets the
// bits of its own symbols and clears them after its sweep.
let matches = new Int32Array(256);
let deltas = new Int8Array(256);
const block = new Int32Array(2);

function matchTable(size: number): Int32Array {
  if (matches.length < size) matches = new Int32Array(Math.max(size, matches.length * 2));
  return matches;
}

/** Horizontal deltas of row 0 (D[0][j] = j): +1 everywhere. */
function topRowDeltas(length: number): Int8Array {
  if (deltas.length < length) deltas = new Int8Array(Math.max(length, deltas.length * 2));
  deltas.fill(1, 0, length);
  return deltas;
}

function setBlock(table: Int32Array, pattern: Int32Array, start: number, end: number): void {
  for (let i = start; i < end; i += 1) table[pattern[i]!]! |= 1 << (i - start);
}

function clearBlock(table: Int32Array, pattern: Int32Array, start: number, end: number): void {
  for (let i = start; i < end; i += 1) table[pattern[i]!] = 0;
}

/**
 * Sweeps one block (bottom row index `top` within the block) over the text: reads the horizontal
 * deltas entering at its top, leaves those leaving at its bottom in their place, and puts the
 * final vertical deltas (Pv, Mv at the last column) in `block`.
 */
function sweep(table: Int32Array, text: Int32Array, from: number, to: number, hd: Int8Array, top: number): void {
  // Column 0 is D[i][0] = i: every vertical delta +1.
  let pv = -1;
  let mv = 0;
  for (let j = from; j < to; j += 1) {
    let eq = table[text[j]!]!;
    const hin = hd[j - from]!;
    const negative = hin >>> 31; // 1 when the delta entering from above is -1
    const xv = eq | mv;
    eq |= negative;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    hd[j - from] = ((ph >>> top) & 1) - ((mh >>> top) & 1);
    ph = (ph << 1) | ((hin + 1) >> 1);
    mh = (mh << 1) | negative;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  block[0] = pv;
  block[1] = mv;
}

/** One block when the whole pattern fits in a word: the entering deltas are all +1. */
function singleWord(table: Int32Array, text: Int32Array, from: number, to: number, m: number): number {
  const last = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let score = m;
  for (let j = from; j < to; j += 1) {
    const eq = table[text[j]!]!;
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) score += 1;
    else if (mh & last) score -= 1;
    ph = (ph << 1) | 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return score;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

const lowBits = (count: number) => (count === WORD ? -1 : (1 << count) - 1);

/** Edit distance between pattern[patternFrom..patternTo) and text[textFrom..textTo). */
export function bitParallelDistance(
  pattern: Int32Array,
  patternFrom: number,
  patternTo: number,
  text: Int32Array,
  textFrom: number,
  textTo: number,
  size: number,
): number {
  const m = patternTo - patternFrom;
  const n = textTo - textFrom;
  if (m === 0) return n;
  if (n === 0) return m;
  const table = matchTable(size);
  if (m <= WORD) {
    setBlock(table, pattern, patternFrom, patternTo);
    const score = singleWord(table, text, textFrom, textTo, m);
    clearBlock(table, pattern, patternFrom, patternTo);
    return score;
  }
  const hd = topRowDeltas(n);
  // D[m][n] = D[0][n] + the vertical deltas of the last column.
  let distance = n;
  for (let start = patternFrom; start < patternTo; start += WORD) {
    const end = Math.min(start + WORD, patternTo);
    setBlock(table, pattern, start, end);
    sweep(table, text, textFrom, textTo, hd, end - start - 1);
    clearBlock(table, pattern, start, end);
    const mask = lowBits(end - start);
    distance += popcount(block[0]! & mask) - popcount(block[1]! & mask);
  }
  return distance;
}

/**
 * The last column of the distance matrix: scores[i] = D(pattern[0..i), text) for i = 0..m,
 * decoded from each block's final vertical deltas.
 */
export function lastColumnScores(pattern: Int32Array, text: Int32Array, size: number): Int32Array {
  const m = pattern.length;
  const n = text.length;
  const scores = new Int32Array(m + 1);
  scores[0] = n;
  if (n === 0) {
    for (let i = 1; i <= m; i += 1) scores[i] = i;
    return scores;
  }
  const table = matchTable(size);
  const hd = topRowDeltas(n);
  for (let start = 0; start < m; start += WORD) {
    const end = Math.min(start + WORD, m);
    setBlock(table, pattern, start, end);
    sweep(table, text, 0, n, hd, end - start - 1);
    clearBlock(table, pattern, start, end);
    const pv = block[0]!;
    const mv = block[1]!;
    for (let i = start; i < end; i += 1) {
      const bit = i - start;
      scores[i + 1] = scores[i]! + ((pv >>> bit) & 1) - ((mv >>> bit) & 1);
    }
  }
  return scores;
}
