import { describe, expect, it } from 'vitest';
import { countTerms, MAX_TERM_LENGTH, terms, tokenize } from './analysis.js';

describe('text analysis', () => {
  it('folds words to terms, joining a word split by a hyphen at a line end', () => {
    expect(terms('Aufklärung und Monatsſchrift, Straße: ﬁn ÆON\nberlini-\nsche Zeit')).toEqual([
      'aufklarung',
      'und',
      'monatsschrift',
      'strasse',
      'fin',
      'aeon',
      'berlinische',
      'zeit',
    ]);
    expect(tokenize('one two-\n three')).toEqual([
      { term: 'one', start: 0, end: 3 },
      { term: 'twothree', start: 4, end: 15 },
    ]);
  });

  it('counts the terms a text has, as many as it gives, words too long or of marks alone left out', () => {
    const long = 'x'.repeat(MAX_TERM_LENGTH);
    const texts = [
      '',
      '   ,.;  ',
      'The quick brown fox 1786',
      `${long} ${long}y ${long.slice(1)}ß ${long.slice(1)}ﬁ`,
      'Straße ÆON ﬁn \u0301\u0301 e\u0301 ſ',
      'berlini-\nsche Monats¬\nſchrift ends-\n',
      'Ὅμηρος 東京 ١٢٣ naïve façade',
    ];
    for (const text of texts) expect(countTerms(text), text).toBe(terms(text).length);
    expect(countTerms(`${long} ${long}y`)).toBe(1);
    expect(countTerms(`${long.slice(1)}ß`)).toBe(0);
  });
});
