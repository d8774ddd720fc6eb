import { describe, expect, it } from 'vitest';
import { alignCharacters, alignWords } from './align.js';
import { characterConfusions } from './confusions.js';
import { editDistance } from './distance.js';

describe('alignCharacters', () => {
  it('aligns kitten with sitting', () => {
    expect(alignCharacters('kitten', 'sitting')).toEqual([
      { op: 'substitute', reference: 'k', hypothesis: 's' },
      { op: 'equal', reference: 'itt', hypothesis: 'itt' },
      { op: 'substitute', reference: 'e', hypothesis: 'i' },
      { op: 'equal', reference: 'n', hypothesis: 'n' },
      { op: 'insert', reference: '', hypothesis: 'g' },
    ]);
  });

  it('handles empty sides', () => {
    expect(alignCharacters('', '')).toEqual([]);
    expect(alignCharacters('', 'ab')).toEqual([{ op: 'insert', reference: '', hypothesis: 'ab' }]);
    expect(alignCharacters('ab', '')).toEqual([{ op: 'delete', reference: 'ab', hypothesis: '' }]);
    expect(alignCharacters('same', 'same')).toEqual([{ op: 'equal', reference: 'same', hypothesis: 'same' }]);
  });

  it('keeps astral characters and combining marks whole', () => {
    expect(alignCharacters('𝔄b', '𝔅b')).toEqual([
      { op: 'substitute', reference: '𝔄', hypothesis: '𝔅' },
      { op: 'equal', reference: 'b', hypothesis: 'b' },
    ]);
    expect(alignCharacters('e\u0301t', 'et')).toEqual([
      { op: 'equal', reference: 'e', hypothesis: 'e' },
      { op: 'delete', reference: '\u0301', hypothesis: '' },
      { op: 'equal', reference: 't', hypothesis: 't' },
    ]);
  });

  it('aligns a pair of 20,000-character pages with many differences', () => {
    let reference = '';
    let hypothesis = '';
    for (let i = 0; reference.length < 20_000; i += 1) {
      const ch = 'abcdefghilmnopqrſstuvx '[(i * 7919) % 23]!;
      reference += ch;
      // About one character in eight changed, dropped or doubled.
      hypothesis += i % 8 === 0 ? 'e' : i % 13 === 0 ? '' : i % 17 === 0 ? ch + ch : ch;
    }
    const runs = alignCharacters(reference, hypothesis);
    expect(runs.map((r) => r.reference).join('')).toBe(reference);
    expect(runs.map((r) => r.hypothesis).join('')).toBe(hypothesis);
    const errors = runs
      .filter((r) => r.op !== 'equal')
      .reduce((sum, r) => sum + Math.max(r.reference.length, r.hypothesis.length), 0);
    expect(errors).toBe(editDistance(reference, hypothesis));
  });
});

describe('alignWords', () => {
  it('aligns whitespace-separated words, joining a run with one space', () => {
    expect(alignWords('the cat  sat on the mat', 'the cat sit on\nmat now')).toEqual([
      { op: 'equal', reference: 'the cat', hypothesis: 'the cat' },
      { op: 'substitute', reference: 'sat', hypothesis: 'sit' },
      { op: 'equal', reference: 'on', hypothesis: 'on' },
      { op: 'delete', reference: 'the', hypothesis: '' },
      { op: 'equal', reference: 'mat', hypothesis: 'mat' },
      { op: 'insert', reference: '', hypothesis: 'now' },
    ]);
    expect(alignWords(' ', '')).toEqual([]);
  });
});

describe('characterConfusions', () => {
  it('counts substitutions, deletions and insertions, most frequent first', () => {
    expect(characterConfusions('ſed ſi ſunt', 'sed si funt.')).toEqual([
      { reference: 'ſ', hypothesis: 's', count: 2 },
      { reference: '', hypothesis: '.', count: 1 },
      { reference: 'ſ', hypothesis: 'f', count: 1 },
    ]);
    expect(characterConfusions('abc', 'ac')).toEqual([{ reference: 'b', hypothesis: '', count: 1 }]);
    expect(characterConfusions('same', 'same')).toEqual([]);
  });

  it('pairs astral characters and keeps the first `limit` entries', () => {
    const confusions = characterConfusions('𝔄x𝔄y𝔄z', 'AxAyBz', 1);
    expect(confusions).toEqual([{ reference: '𝔄', hypothesis: 'A', count: 2 }]);
    expect(characterConfusions('abc', 'xyz', 0)).toEqual([]);
  });
});
