import { describe, expect, it } from 'vitest';
import { editDistance, editDistanceOf } from './distance.js';

describe('editDistance, hand-computed', () => {
  it.each([
    ['', '', 0],
    ['', 'x', 1],
    ['x', '', 1],
    ['abc', 'abc', 0],
    ['abc', 'xyz', 3],
    ['kitten', 'sitting', 3],
    ['sitting', 'kitten', 3],
    ['flaw', 'lawn', 2],
    ['ſed', 'sed', 1],
  ])('%j to %j is %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
  });

  it('counts an astral character as one symbol', () => {
    expect(editDistance('𝔄', 'A')).toBe(1);
    expect(editDistance('𝔄𝔅ℭ', '')).toBe(3);
    expect(editDistance('𝔄bc', '𝔅bc')).toBe(1);
    // Both halves of 𝔄 and 𝔅 differ only in the low surrogate: still one substitution.
    expect(editDistance('x𝔄y', 'x𝔅y')).toBe(1);
  });

  it('counts a combining mark as a code point of its own (no normalisation)', () => {
    // é (U+00E9) against e + U+0301: substitute é by e, insert the accent.
    expect(editDistance('\u00e9', 'e\u0301')).toBe(2);
    expect(editDistance('e\u0301', 'e')).toBe(1);
  });

  it('compares lone surrogates as symbols too', () => {
    expect(editDistance('a\ud800', 'a\udc00')).toBe(1);
    expect(editDistance('\ud835', '𝔄')).toBe(1);
  });
});

describe('editDistanceOf', () => {
  it('compares integer sequences', () => {
    expect(editDistanceOf([], [])).toBe(0);
    expect(editDistanceOf([1, 2, 3], [])).toBe(3);
    expect(editDistanceOf([1, 2, 3], [1, 3])).toBe(1);
    expect(editDistanceOf([7, 1_000_000, -4], [7, 1_000_000, -4])).toBe(0);
    expect(editDistanceOf([5, 6, 7, 8], [9, 5, 6, 8])).toBe(2);
  });
});
