import { describe, expect, it } from 'vitest';
import { codePoint, visibleCharacter, visibleRun } from './visible';

describe('visibleCharacter', () => {
  it('shows what prints as nothing by a stand-in, and keeps every other character as it is', () => {
    expect(['a', 'ſ', '\u204a', '𝔄'].map(visibleCharacter)).toEqual(['a', 'ſ', '\u204a', '𝔄']);
    expect([' ', '\n', '\t', '\r', '\u00a0', '\u2009'].map(visibleCharacter)).toEqual(['␣', '⏎', '⇥', '␍', '⍽', '␣']);
    expect(visibleCharacter('\u0304')).toBe('\u25cc\u0304');
    expect(visibleCharacter('\u200d')).toBe('⟨U+200D⟩');
  });

  it('names astral code points in full', () => {
    expect(codePoint('𝔄')).toBe('U+1D504');
    expect(codePoint('a')).toBe('U+0061');
  });
});

describe('visibleRun', () => {
  it('keeps line breaks breaking, and puts only a leading combining mark on a dotted circle', () => {
    expect(visibleRun('a b\nc')).toBe('a␣b⏎\nc');
    expect(visibleRun('\u0304e\u0304')).toBe('\u25cc\u0304e\u0304');
  });
});
