import { alignWords } from '@pim/contract';
import { describe, expect, it } from 'vitest';
import { wordSeparators, wordsWithSeparators } from './word-layout';

describe('wordSeparators', () => {
  it('keeps the whitespace between words as it stands, and nothing before the first or after the last', () => {
    expect(wordSeparators('  Jtem ſo\nhat\t\tder \n herr\n')).toEqual([' ', '\n', '\t\t', ' \n ']);
    expect(wordSeparators('one')).toEqual([]);
    expect(wordSeparators(' \n ')).toEqual([]);
  });

  it('finds the words the word alignment aligns', () => {
    const text = 'a\u00a0b\u2003c\r\nd';
    const words = alignWords(text, text).flatMap((run) => run.reference.split(' '));
    expect(words).toEqual(['a', 'b', 'c', 'd']);
    expect(wordSeparators(text)).toEqual(['\u00a0', '\u2003', '\r\n']);
  });
});

describe('wordsWithSeparators', () => {
  it('puts back the whitespace of the text between the words of a run', () => {
    const separators = wordSeparators('x  gefchriben an\ndem tag');
    expect(wordsWithSeparators('an dem tag', 2, separators)).toEqual({ text: 'an\ndem tag', count: 3 });
    expect(wordsWithSeparators('x', 0, separators)).toEqual({ text: 'x', count: 1 });
  });
});
