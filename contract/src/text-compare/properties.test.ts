import { describe, expect, it } from 'vitest';
import { alignCharacters, alignWords, type AlignmentRun } from './align.js';
import { lastColumnScores } from './bit-parallel.js';
import { editDistance, editDistanceOf } from './distance.js';
import { encodeValues } from './symbols.js';
import { splitWords } from './words.js';

/** Property tests: every fast path against the plain O(mn) dynamic programme written here. */

/** The whole matrix, row by row; returns its last column D(a[0..i), b) for i = 0..m. */
function referenceColumn<T>(a: readonly T[], b: readonly T[]): number[] {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  const column = [b.length];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), previous[j]! + 1, row[j - 1]! + 1);
    }
    previous = row;
    column.push(row[b.length]!);
  }
  return column;
}

const referenceDistance = <T>(a: readonly T[], b: readonly T[]) => referenceColumn(a, b)[a.length]!;

/** A seeded generator (mulberry32): failures repeat. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` code points from `alphabet`, or, without one, any non-surrogate code point (a third astral). */
function randomText(next: () => number, length: number, alphabet: string | null): string {
  const symbols = alphabet === null ? null : Array.from(alphabet);
  let out = '';
  for (let k = 0; k < length; k += 1) {
    if (symbols) out += symbols[Math.floor(next() * symbols.length)];
    else if (next() < 1 / 3) out += String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff));
    else out += String.fromCodePoint(Math.floor(next() * 0xd800));
  }
  return out;
}

// Lengths on either side of the 32-bit block boundary and of two blocks, and a long one.
const LENGTHS = [0, 1, 2, 31, 32, 33, 63, 64, 65, 1000];

describe('editDistance against the plain dynamic programme', () => {
  it.each([
    ['two letters', 'ab'],
    ['four letters', 'acgt'],
    ['Latin with accents and long s', 'abcdeſéèæꝑ '],
    ['wide: any BMP or astral code point', null],
  ] as const)('random strings over %s', (_name, alphabet) => {
    const next = randomSource(LENGTHS.length + (alphabet?.length ?? 99));
    for (const m of LENGTHS) {
      for (const n of LENGTHS) {
        const a = randomText(next, m, alphabet);
        const b = randomText(next, n, alphabet);
        expect(editDistance(a, b), `${m} x ${n}`).toBe(referenceDistance(Array.from(a), Array.from(b)));
      }
    }
  });

  it('agrees on pairs that share a prefix and suffix and differ inside', () => {
    const next = randomSource(7);
    for (let k = 0; k < 200; k += 1) {
      const common = randomText(next, Math.floor(next() * 70), 'abc');
      const a = common + randomText(next, Math.floor(next() * 70), 'abc') + common;
      const b = common + randomText(next, Math.floor(next() * 70), 'abc') + common;
      expect(editDistance(a, b)).toBe(referenceDistance(Array.from(a), Array.from(b)));
    }
  });

  it('agrees for integer sequences', () => {
    const next = randomSource(11);
    for (const m of LENGTHS) {
      const n = LENGTHS[Math.floor(next() * LENGTHS.length)]!;
      const a = Array.from({ length: m }, () => Math.floor(next() * 5) * 1000);
      const b = Array.from({ length: n }, () => Math.floor(next() * 5) * 1000);
      expect(editDistanceOf(a, b)).toBe(referenceDistance(a, b));
    }
  });
});

describe('lastColumnScores (the scores Hirschberg splits on)', () => {
  it('equals the last column of the full matrix', () => {
    const next = randomSource(3);
    for (const m of LENGTHS) {
      for (const n of [0, 1, 33, 100]) {
        const pattern = Array.from(randomText(next, m, 'abcd'));
        const text = Array.from(randomText(next, n, 'abcd'));
        const { a, b, size } = encodeValues(pattern, text);
        expect(Array.from(lastColumnScores(a, b, size)), `${m} x ${n}`).toEqual(referenceColumn(pattern, text));
      }
    }
  });
});

/** Checks that the runs are an alignment of the two symbol lists and returns its cost. */
function alignmentCost(runs: AlignmentRun[], reference: string[], hypothesis: string[], split: (text: string) => string[]) {
  let cost = 0;
  const ref: string[] = [];
  const hyp: string[] = [];
  runs.forEach((run, k) => {
    if (k > 0) expect(run.op).not.toBe(runs[k - 1]!.op);
    const r = split(run.reference);
    const h = split(run.hypothesis);
    if (run.op === 'equal') expect(r).toEqual(h);
    if (run.op === 'substitute') {
      expect(r.length).toBe(h.length);
      r.forEach((symbol, i) => expect(symbol).not.toBe(h[i]));
    }
    if (run.op === 'insert') expect(r).toEqual([]);
    if (run.op === 'delete') expect(h).toEqual([]);
    if (run.op !== 'equal') cost += Math.max(r.length, h.length);
    expect(r.length + h.length).toBeGreaterThan(0);
    ref.push(...r);
    hyp.push(...h);
  });
  expect(ref).toEqual(reference);
  expect(hyp).toEqual(hypothesis);
  return cost;
}

describe('alignments', () => {
  it('character alignments are optimal: their errors add up to the edit distance', () => {
    const next = randomSource(5);
    // Pieces above 4,096 cells go through Hirschberg's split, smaller ones through the matrix.
    for (const [m, n, alphabet] of [
      [0, 5, 'ab'],
      [1, 300, 'ab'],
      [40, 40, 'abc'],
      [65, 64, 'ab'],
      [200, 150, 'abcd'],
      [1000, 1000, 'ab'],
      [1000, 700, 'abcdefghij'],
      [500, 500, null],
    ] as const) {
      const a = randomText(next, m, alphabet);
      const b = randomText(next, n, alphabet);
      const cost = alignmentCost(alignCharacters(a, b), Array.from(a), Array.from(b), (text) => Array.from(text));
      expect(cost, `${m} x ${n}`).toBe(editDistance(a, b));
    }
  });

  it('aligns similar texts with edits spread along them', () => {
    const next = randomSource(9);
    for (let k = 0; k < 20; k += 1) {
      const a = randomText(next, 300 + Math.floor(next() * 3000), 'abcdefgh ');
      let b = '';
      for (const ch of a) b += next() < 0.1 ? randomText(next, Math.floor(next() * 3), 'abcdefgh ') : ch;
      const cost = alignmentCost(alignCharacters(a, b), Array.from(a), Array.from(b), (text) => Array.from(text));
      expect(cost).toBe(editDistance(a, b));
    }
  });

  it('word alignments are optimal: their errors add up to the word edit distance', () => {
    const next = randomSource(13);
    const words = (count: number) => Array.from({ length: count }, () => randomText(next, 1 + Math.floor(next() * 3), 'ab')).join(' ');
    for (const [m, n] of [[0, 3], [10, 12], [100, 90], [600, 640]]) {
      const a = words(m!);
      const b = words(n!);
      const cost = alignmentCost(alignWords(a, b), splitWords(a), splitWords(b), splitWords);
      const ids = new Map<string, number>();
      const id = (word: string) => ids.get(word) ?? ids.set(word, ids.size).size - 1;
      expect(cost).toBe(editDistanceOf(splitWords(a).map(id), splitWords(b).map(id)));
    }
  });
});
