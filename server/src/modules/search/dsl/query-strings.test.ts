import { describe, expect, it } from 'vitest';
import { ALL_TEXT_FIELDS as ALL, refusal, textQuery } from '../../../test-support/search-dsl.js';
import { parseSearchRequest } from '../dsl.js';
import type { Query } from '../query.js';

const word = (text: string, form = 'plain', fuzziness: unknown = 0) => ({ text, form, fuzziness });
const text = (words: unknown[], extra: object = {}) => textQuery(ALL, words, extra);
const one = (value: string, extra: object = {}) => text([word(value)], extra);
const bool = (parts: object, minimumShouldMatch = 0) => ({ kind: 'bool', must: [], should: [], filter: [], mustNot: [], minimumShouldMatch, boost: 1, ...parts });

const queryString = (query: string, options: object = {}): Query => parseSearchRequest({ query: { query_string: { query, ...options } } }).query;
const simple = (query: string, options: object = {}): Query => parseSearchRequest({ query: { simple_query_string: { query, ...options } } }).query;

describe('query_string', () => {
  it('combines words with the default operator into one text query', () => {
    expect(queryString('Aufklärung Berlin')).toEqual(text([word('Aufklärung'), word('Berlin')]));
    expect(queryString('Aufklärung Berlin', { default_operator: 'AND' })).toEqual(text([word('Aufklärung'), word('Berlin')], { operator: 'and' }));
    expect(queryString('a AND b && c')).toEqual(text([word('a'), word('b'), word('c')], { operator: 'and' }));
    expect(queryString('a b c d', { minimum_should_match: '75%' })).toEqual(text([word('a'), word('b'), word('c'), word('d')], { minimumShouldMatch: 3 }));
  });

  it('applies AND, OR, NOT, + and - as Lucene does', () => {
    expect(queryString('a OR b -c')).toEqual(bool({ should: [one('a'), one('b')], mustNot: [one('c')] }, 1));
    expect(queryString('a AND b OR c')).toEqual(bool({ must: [one('a'), one('b')], should: [one('c')] }));
    expect(queryString('a OR b c', { default_operator: 'and' })).toEqual(bool({ should: [one('a', { operator: 'and' }), one('b', { operator: 'and' })], must: [one('c', { operator: 'and' })] }));
    expect(queryString('+a !b || c')).toEqual(bool({ must: [one('a')], mustNot: [one('b')], should: [one('c')] }));
    expect(queryString('NOT a')).toEqual(bool({ must: [{ kind: 'match_all', boost: 1 }], mustNot: [one('a')] }));
  });

  it('reads phrases with slop, fuzzy words, prefixes, patterns, boosts and groups', () => {
    expect(queryString('"liebe Mutter"~2^3')).toEqual({ kind: 'phrase', fields: ALL, text: 'liebe Mutter', slop: 2, lastIsPrefix: false, boost: 3 });
    expect(queryString('"liebe Mutter"', { phrase_slop: 1 })).toMatchObject({ kind: 'phrase', slop: 1 });
    expect(queryString('Aufklarung~ Monat~1 Zeit~5')).toEqual(text([word('Aufklarung', 'plain', 'AUTO'), word('Monat', 'plain', 1), word('Zeit', 'plain', 2)]));
    expect(queryString('Monat* M?nat Mo*at', { analyze_wildcard: true })).toEqual(text([word('Monat', 'prefix'), word('M?nat', 'pattern'), word('Mo*at', 'pattern')]));
    expect(queryString('(a OR b)^2 AND c')).toEqual(bool({ must: [text([word('a'), word('b')], { boost: 2 }), one('c')] }));
    expect(queryString('a\\:b foo-bar')).toEqual(bool({ should: [one('a:b'), one('foo-bar')] }, 1));
  });

  it('reads field:value on text and keyword fields, ranges, _exists_ and field:*', () => {
    const field = (name: string) => [{ field: name, boost: 1 }];
    expect(queryString('htr:(brief OR karte) AND language:deu')).toEqual(
      bool({ must: [text([word('brief'), word('karte')], { fields: field('htr') }), { kind: 'terms', field: 'language', values: ['deu'], boost: 1 }] }),
    );
    expect(queryString('pagenumber:>=3')).toEqual({ kind: 'range', field: 'pagenumber', gte: 3, boost: 1 });
    expect(queryString('pagenumber:[3 TO *} date:{2020 TO 2021-06]')).toEqual(
      bool({ should: [{ kind: 'range', field: 'pagenumber', gte: 3, boost: 1 }, { kind: 'range', field: 'date', gt: '2020-01-01T23:59:59.999Z', lte: '2021-06-01T23:59:59.999Z', boost: 1 }] }, 1),
    );
    expect(queryString('_exists_:ocrConfidence')).toEqual({ kind: 'exists', field: 'ocrConfidence', boost: 1 });
    expect(queryString('persons:*')).toEqual({ kind: 'exists', field: 'persons', boost: 1 });
    expect(queryString('*')).toEqual({ kind: 'match_all', boost: 1 });
    expect(queryString('label:"Brief an die Mutter"')).toEqual({ kind: 'terms', field: 'label', values: ['Brief an die Mutter'], boost: 1 });
  });

  it('searches fields or default_field with boosts and patterns, and a type for several fields', () => {
    expect(queryString('a', { fields: ['text^2', 'persons'], type: 'most_fields', tie_breaker: 0.5 })).toEqual(
      one('a', { fields: [{ field: 'text', boost: 2 }, { field: 'persons', boost: 1 }], scoring: 'most_fields', tieBreaker: 0.5 }),
    );
    expect(queryString('a', { default_field: 'h*' })).toEqual(one('a', { fields: [{ field: 'htr', boost: 1 }] }));
    expect(queryString('   ')).toEqual({ kind: 'match_none' });
  });

  it('answers a syntax error as Elasticsearch does, a query_shard_exception naming the query', () => {
    const cases: [string, string][] = [
      ['a AND', '"AND" at the end needs something after it'],
      ['(a OR b', 'the parenthesis at character 1 is never closed'],
      ['a)', '")" is not expected here'],
      ['"open', 'the quote at character 1 is never closed'],
      ['OR a', '"OR" at character 1 has nothing before it'],
      ['a^', '"^" at character 2 needs a number (a boost such as ^2)'],
      ['pagenumber:[1 TO', 'the range at character 12 is never closed'],
      ['text:', 'the field "text" is followed by nothing'],
    ];
    for (const [query, reason] of cases) {
      const error = refusal(() => queryString(query));
      expect(error).toMatchObject({ status: 400, code: 'search_parse', details: { type: 'query_shard_exception', at: 'query.query_string' } });
      expect(error.message).toBe(`Failed to parse query [${query}] (at query.query_string): ${reason}.`);
    }
  });

  it('refuses regular expressions, unknown fields, wildcards on keyword fields and both fields and default_field', () => {
    expect(refusal(() => queryString('/ab+c/')).code).toBe('search_unsupported');
    expect(refusal(() => queryString('title:x')).message).toMatch(/^The field "title" \(at query\.query_string\) does not exist/);
    expect(refusal(() => queryString('label:Br*')).message).toBe('The wildcard "Br*" on a keyword field (at query.query_string) is not supported by this search server.');
    expect(refusal(() => queryString('a', { fields: ['text'], default_field: 'text' })).message).toBe(
      'The query_string query (at query.query_string) takes "fields" or "default_field", not both.',
    );
    expect(refusal(() => queryString('a', { type: 'phrase' })).code).toBe('search_unsupported');
  });
});

describe('simple_query_string', () => {
  it('reads + | - and whitespace with the default operator', () => {
    expect(simple('a b')).toEqual(text([word('a'), word('b')]));
    expect(simple('a b', { default_operator: 'and' })).toEqual(text([word('a'), word('b')], { operator: 'and' }));
    expect(simple('a + b | c')).toEqual(bool({ should: [text([word('a'), word('b')], { operator: 'and' }), one('c')] }, 1));
    // As in Elasticsearch, "-b" with the OR default is "everything but b", one of the optional clauses.
    expect(simple('a -b')).toEqual(bool({ should: [one('a'), bool({ must: [{ kind: 'match_all', boost: 1 }], mustNot: [one('b')] })] }, 1));
    expect(simple('a -b', { default_operator: 'AND' })).toEqual(
      bool({ must: [one('a', { operator: 'and' }), bool({ must: [{ kind: 'match_all', boost: 1 }], mustNot: [one('b', { operator: 'and' })] })] }),
    );
  });

  it('reads phrases with slop, prefixes, fuzzy words, groups and escapes; field:value is just words', () => {
    expect(simple('"liebe Mutter"~1')).toEqual({ kind: 'phrase', fields: ALL, text: 'liebe Mutter', slop: 1, lastIsPrefix: false, boost: 1 });
    expect(simple('Monat* Aufklarung~ Zeit~1 Wort~x')).toEqual(
      text([word('Monat', 'prefix'), word('Aufklarung', 'plain', 2), word('Zeit', 'plain', 1), word('Wort')]),
    );
    expect(simple('(a | b) + c')).toEqual(bool({ must: [text([word('a'), word('b')]), one('c')] }));
    expect(simple('a\\+b')).toEqual(one('a+b'));
    expect(simple('language:deu')).toEqual(one('language:deu'));
  });

  it('never fails: unclosed quotes and parentheses, dangling operators and stray characters are dropped', () => {
    expect(simple('"liebe Mutter')).toEqual(text([word('liebe'), word('Mutter')]));
    expect(simple('(a b')).toEqual(text([word('a'), word('b')]));
    expect(simple('a | ) +')).toEqual(one('a'));
    expect(simple('')).toEqual({ kind: 'match_none' });
    expect(simple('~ & |')).toEqual({ kind: 'match_none' });
  });

  it('applies minimum_should_match to the top-level clauses, with fields and flags', () => {
    expect(simple('a b c', { minimum_should_match: 2, fields: ['persons^2'], flags: 'ALL', analyze_wildcard: true })).toEqual(
      text([word('a'), word('b'), word('c')], { fields: [{ field: 'persons', boost: 2 }], minimumShouldMatch: 2 }),
    );
  });

  it('refuses what it does not take as parameters', () => {
    expect(refusal(() => simple('a', { default_field: 'text' })).message).toMatch(/^The simple_query_string query \(at query\.simple_query_string\) has no parameter "default_field"/);
  });
});
