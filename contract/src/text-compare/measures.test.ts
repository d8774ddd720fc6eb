import { describe, expect, it } from 'vitest';
import { characterErrorRate, compareTexts, wordErrorRate } from './measures.js';
import { NORMALISATIONS, normalise } from './normalise.js';

describe('characterErrorRate', () => {
  it.each([
    ['', '', 0],
    ['', 'x', 1],
    ['', 'xyz', 1],
    ['x', '', 1],
    ['abc', 'abc', 0],
    ['abc', 'xyz', 1],
    ['kitten', 'sitting', 3 / 6],
    ['ab', 'abcdef', 4 / 2],
    ['𝔄bc', 'Abc', 1 / 3],
    ['ſed', 'sed', 1 / 3],
  ])('%j read as %j is %d', (reference, hypothesis, expected) => {
    expect(characterErrorRate(reference, hypothesis)).toBeCloseTo(expected, 12);
  });
});

describe('wordErrorRate', () => {
  it('counts word substitutions, deletions and insertions per reference word', () => {
    // sat → sit, the second "the" dropped: 2 errors in 6 words.
    expect(wordErrorRate('the cat sat on the mat', 'the cat sit on mat')).toBeCloseTo(2 / 6, 12);
    // Any whitespace separates words; runs of it count once.
    expect(wordErrorRate('in principio\nerat  verbum', ' in\tprincipio erat verbum ')).toBe(0);
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('   ', 'word')).toBe(1);
    expect(wordErrorRate('a b', '')).toBe(1);
  });
});

describe('compareTexts', () => {
  it('gives every measure of two texts', () => {
    expect(compareTexts('the cat sat on the mat', 'the cat sit on mat')).toEqual({
      referenceLength: 22,
      hypothesisLength: 18,
      distance: 5,
      normalisedDistance: 5 / 22,
      cer: 5 / 22,
      wer: 2 / 6,
      wordDistance: 2,
      referenceWords: 6,
      hypothesisWords: 5,
    });
  });

  it('is all zeros for two empty texts', () => {
    expect(compareTexts('', '')).toEqual({
      referenceLength: 0,
      hypothesisLength: 0,
      distance: 0,
      normalisedDistance: 0,
      cer: 0,
      wer: 0,
      wordDistance: 0,
      referenceWords: 0,
      hypothesisWords: 0,
    });
  });

  it('divides the normalised distance by the longer text', () => {
    const result = compareTexts('ab', 'abcdef');
    expect(result.normalisedDistance).toBe(4 / 6);
    expect(result.cer).toBe(2);
  });

  it('counts lengths in code points after normalisation', () => {
    const decomposed = 'Ave\u0301 𝔄';
    expect(compareTexts(decomposed, 'Avé 𝔄', 'exact')).toMatchObject({ referenceLength: 6, hypothesisLength: 5, distance: 2 });
    expect(compareTexts(decomposed, 'Avé 𝔄', 'nfc')).toMatchObject({ referenceLength: 5, hypothesisLength: 5, distance: 0, cer: 0 });
  });

  it('measures under each normalisation', () => {
    const reference = 'Ioannes, ſcripſit.';
    const hypothesis = 'ioannes ſcripſit';
    expect(compareTexts(reference, hypothesis, 'exact').distance).toBe(3);
    expect(compareTexts(reference, hypothesis, 'ignoreCase').distance).toBe(2);
    expect(compareTexts(reference, hypothesis, 'ignorePunctuation').distance).toBe(1);
    expect(compareTexts(reference, hypothesis, 'ignorePunctuation').wer).toBe(1 / 2);
    // Long s is never folded into s.
    expect(compareTexts('ſcripſit', 'scripsit', 'ignoreCase').distance).toBe(2);
  });
});

describe('normalise', () => {
  it('offers the six choices, each with a label', () => {
    expect(NORMALISATIONS.map((n) => n.id)).toEqual([
      'exact',
      'nfc',
      'ignoreCase',
      'ignorePunctuation',
      'collapseWhitespace',
      'stripCombiningMarks',
    ]);
    for (const { label } of NORMALISATIONS) expect(label).toMatch(/\S/);
  });

  it('keeps every code point when exact', () => {
    // Decomposed accent, long s, p with stroke (per), Tironian et, a MUFI private-use
    // character, an astral letter, a no-break space.
    const text = 'e\u0301 ſ ꝑ ⁊ \ue5b8 𝔄\u00a0.';
    expect(normalise(text, 'exact')).toBe(text);
  });

  it('composes canonically under nfc and keeps long s', () => {
    expect(normalise('e\u0301', 'nfc')).toBe('\u00e9');
    expect(normalise('ſ ﬁ', 'nfc')).toBe('ſ ﬁ');
  });

  it('lower-cases without folding long s or depending on the locale', () => {
    expect(normalise('ABC Ꝑ ẞ Æ ſ', 'ignoreCase')).toBe('abc ꝑ ß æ ſ');
    expect(normalise('DIXIT', 'ignoreCase')).toBe('dixit');
  });

  it('removes punctuation but keeps the Tironian et and symbols', () => {
    expect(normalise('a, b. c⁊d —e; (f) «g»!', 'ignorePunctuation')).toBe('a b c⁊d e f g');
    expect(normalise('⸒ ¬ + ℞', 'ignorePunctuation')).toBe(' ¬ + ℞');
    expect(normalise('\u2e52', 'ignorePunctuation')).toBe('\u2e52');
  });

  it('collapses every kind of whitespace to one space and trims', () => {
    expect(normalise(' a \t\n b\u00a0\u2003c\r\n', 'collapseWhitespace')).toBe('a b c');
  });

  it('strips combining marks from precomposed and decomposed letters alike', () => {
    expect(normalise('\u00e9 e\u0301 q\u0304 \u014d a\u0364 ſ', 'stripCombiningMarks')).toBe('e e q o a ſ');
  });
});
