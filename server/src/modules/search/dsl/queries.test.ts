import { describe, expect, it } from 'vitest';
import { refusal, textQuery } from '../../../test-support/search-dsl.js';
import { parseSearchRequest } from '../dsl.js';
import type { Query } from '../query.js';

const parse = (query: unknown): Query => parseSearchRequest({ query }).query;
const message = (query: unknown) => refusal(() => parse(query)).message;

const TEXT = [{ field: 'text', boost: 1 }];
const text = (words: unknown[], extra: object = {}) => textQuery(TEXT, words, extra);
const plain = (value: string, fuzziness: unknown = 0) => ({ text: value, form: 'plain', fuzziness });

describe('full-text queries', () => {
  it('reads match in short and long form, with operator, fuzziness, boost and minimum_should_match', () => {
    expect(parse({ match: { text: 'gnädige Frau' } })).toEqual(text([plain('gnädige Frau')]));
    expect(parse({ match: { text: { query: 'a b c d', operator: 'AND', fuzziness: 'AUTO:3,6', boost: 2, prefix_length: 1, lenient: true, analyzer: 'standard' } } })).toEqual(
      text([plain('a b c d', 'AUTO')], { operator: 'and', boost: 2 }),
    );
    const minimum = (spec: unknown) => (parse({ match: { text: { query: 'a b c d', minimum_should_match: spec } } }) as { minimumShouldMatch: unknown }).minimumShouldMatch;
    expect([minimum(3), minimum('-1'), minimum('75%'), minimum('-25%'), minimum('2<50%'), minimum('10<50%'), minimum('1')]).toEqual([3, 3, 3, 3, 2, 4, null]);
    expect(parse({ match: { htr: { query: 1789, fuzziness: 1 } } })).toEqual(text([plain('1789', 1)], { fields: [{ field: 'htr', boost: 1 }] }));
  });

  it('matches nothing for a text without terms unless zero_terms_query is all', () => {
    expect(parse({ match: { text: ' … ' } })).toEqual({ kind: 'match_none' });
    expect(parse({ match: { text: { query: '', zero_terms_query: 'all' } } })).toEqual({ kind: 'match_all', boost: 1 });
  });

  it('compares the whole text on keyword fields, as a term query', () => {
    expect(parse({ match: { 'language.keyword': 'deu' } })).toEqual({ kind: 'terms', field: 'language', values: ['deu'], boost: 1 });
    expect(parse({ match_phrase: { pagenumber: '12' } })).toEqual({ kind: 'terms', field: 'pagenumber', values: [12], boost: 1 });
    expect(parse({ match: { pagenumber: { query: 'twelve', lenient: true } } })).toEqual({ kind: 'match_none' });
    expect(message({ match: { pagenumber: 'twelve' } })).toBe(
      'The value for the number field "pagenumber" (at query.match.pagenumber) must be a number, not a string ("twelve").',
    );
  });

  it('reads match_phrase (slop), match_phrase_prefix and match_bool_prefix', () => {
    expect(parse({ match_phrase: { text: { query: 'liebe Mutter', slop: 2 } } })).toEqual({ kind: 'phrase', fields: TEXT, text: 'liebe Mutter', slop: 2, lastIsPrefix: false, boost: 1 });
    expect(parse({ match_phrase_prefix: { text: { query: 'liebe Mut', max_expansions: 10 } } })).toMatchObject({ kind: 'phrase', lastIsPrefix: true, slop: 0 });
    expect(parse({ match_bool_prefix: { text: { query: 'liebe gute Mut', fuzziness: 1 } } })).toEqual(
      text([plain('liebe gute ', 1), { text: 'Mut', form: 'prefix', fuzziness: 0 }]),
    );
  });

  it('reads multi_match of every type, with field boosts and patterns', () => {
    const fields = [{ field: 'text', boost: 3 }, { field: 'htr', boost: 1 }];
    expect(parse({ multi_match: { query: 'brief', fields: ['text^3', 'htr'], fuzziness: 2, tie_breaker: 0.3 } })).toEqual(
      text([plain('brief', 2)], { fields, tieBreaker: 0.3 }),
    );
    expect(parse({ multi_match: { query: 'brief', fields: ['*'], type: 'most_fields' } })).toMatchObject({ scoring: 'most_fields', tieBreaker: 1, fields: [{ field: 'text' }, { field: 'htr' }, { field: 'persons' }] });
    expect(parse({ multi_match: { query: 'a b', fields: 'te*', type: 'cross_fields', operator: 'and' } })).toMatchObject({ scoring: 'cross_fields', operator: 'and', fields: TEXT });
    expect(parse({ multi_match: { query: 'a b', type: 'phrase', slop: 1 } })).toMatchObject({ kind: 'phrase', slop: 1, lastIsPrefix: false });
    expect(parse({ multi_match: { query: 'a', fields: [] } })).toMatchObject({ kind: 'text', fields: [{ field: 'text' }, { field: 'htr' }, { field: 'persons' }] });
    expect(parse({ multi_match: { query: 'a b', fields: ['text'], type: 'phrase_prefix' } })).toMatchObject({ kind: 'phrase', lastIsPrefix: true, fields: TEXT });
    expect(parse({ multi_match: { query: 'a b', fields: ['text'], type: 'bool_prefix' } })).toEqual(
      text([plain('a '), { text: 'b', form: 'prefix', fuzziness: 0 }], { scoring: 'most_fields' }),
    );
  });

  it('adds a term clause for a keyword field in multi_match', () => {
    expect(parse({ multi_match: { query: 'Brief', fields: ['text', 'label^2'] } })).toEqual({
      kind: 'bool',
      must: [],
      should: [text([plain('Brief')]), { kind: 'terms', field: 'label', values: ['Brief'], boost: 2 }],
      filter: [],
      mustNot: [],
      minimumShouldMatch: 1,
      boost: 1,
    });
  });

  it('refuses unknown fields and patterns, fuzzy phrases, bad fuzziness and unknown parameters', () => {
    expect(message({ match: { title: 'x' } })).toMatch(/^The field "title" \(at query\.match\.title\) does not exist in the search index\./);
    expect(message({ multi_match: { query: 'x', fields: ['foo*'] } })).toBe(
      'The field pattern "foo*" (at query.multi_match.fields) matches none of the text fields (text, htr, persons).',
    );
    expect(message({ multi_match: { query: 'x', type: 'phrase', fuzziness: 'AUTO' } })).toBe(
      'The multi_match query (at query.multi_match) of type phrase cannot be fuzzy; Elasticsearch refuses fuzziness for it too.',
    );
    expect(message({ match: { text: { query: 'x', fuzziness: 3 } } })).toBe(
      'The fuzziness (at query.match.text.fuzziness) must be 0, 1, 2, "AUTO" or "AUTO:3,6", not a number (3).',
    );
    expect(message({ match: { text: { query: 'x', foo: 1 } } })).toMatch(/^The match query \(at query\.match\.text\) has no parameter "foo"\. It takes: query, boost,/);
    expect(message({ match: { text: 'x', htr: 'y' } })).toBe('The match query (at query.match) names several fields (text, htr); it takes one: use multi_match to search several.');
    expect(message({ match: { text: { operator: 'or' } } })).toBe('The match query (at query.match.text) has no "query": it needs the text to search for.');
    expect(message({ match: { text: { query: 'a', minimum_should_match: 'most' } } })).toMatch(/^The minimum_should_match \(at query\.match\.text\.minimum_should_match\) must be a whole number/);
  });
});

describe('term-level queries', () => {
  it('reads term, terms, _id and term on a text field', () => {
    expect(parse({ term: { imageSetUuid: { value: 'abc', boost: 2 } } })).toEqual({ kind: 'terms', field: 'imageSetUuid', values: ['abc'], boost: 2 });
    expect(parse({ terms: { pagenumber: [1, '2'], boost: 3 } })).toEqual({ kind: 'terms', field: 'pagenumber', values: [1, 2], boost: 3 });
    expect(parse({ terms: { language: [] } })).toEqual({ kind: 'match_none' });
    expect(parse({ term: { _id: 'img-1' } })).toEqual({ kind: 'ids', values: ['img-1'], boost: 1 });
    expect(parse({ term: { text: 'brief' } })).toEqual(text([plain('brief')]));
    expect(message({ term: { label: { value: 'x', case_insensitive: true } } })).toBe(
      'case_insensitive: true in the term query (at query.term.label.case_insensitive) is not supported by this search server.',
    );
    expect(message({ terms: { label: { index: 'other', id: '1', path: 'labels' } } })).toBe(
      'A terms lookup (values from another document) (at query.terms.label) is not supported by this search server.',
    );
  });

  it('reads range on numbers and dates, old and new bounds, time_zone, and rounds dates as Elasticsearch', () => {
    expect(parse({ range: { pagenumber: { gte: '3', lt: 10, format: 'whatever' } } })).toEqual({ kind: 'range', field: 'pagenumber', gte: 3, lt: 10, boost: 1 });
    expect(parse({ range: { date: { gt: '2020-05', lte: '2020-05-17' } } })).toEqual({
      kind: 'range',
      field: 'date',
      gt: '2020-05-01T23:59:59.999Z',
      lte: '2020-05-17T23:59:59.999Z',
      boost: 1,
    });
    expect(parse({ range: { date: { from: '2020-01-01T10:00:00+02:00', to: null, include_lower: false } } })).toEqual({
      kind: 'range',
      field: 'date',
      gt: '2020-01-01T08:00:00.999Z',
      boost: 1,
    });
    expect(parse({ range: { date: { gte: '2020-01-01', time_zone: '+01:00' } } })).toMatchObject({ gte: '2019-12-31T23:00:00.000Z' });
    expect(parse({ range: { date: { gte: 0 } } })).toMatchObject({ gte: '1970-01-01T00:00:00.000Z' });
    expect(message({ range: { date: { gte: 'now-1d' } } })).toMatch(/^The value for the date field "date" \(at query\.range\.date\.gte\) must be a date such as "2024"/);
    expect(message({ range: { date: { gte: '01/02/2020', format: 'dd/MM/yyyy' } } })).toBe(
      'The date format "dd/MM/yyyy" (dates are read as ISO 8601 or epoch milliseconds) (at query.range.date.format) is not supported by this search server.',
    );
    expect(message({ range: { text: { gte: 'a' } } })).toMatch(/is a text field, which a range query cannot use/);
  });

  it('reads exists, ids, prefix, wildcard and fuzzy', () => {
    expect(parse({ exists: { field: 'ocrConfidence' } })).toEqual({ kind: 'exists', field: 'ocrConfidence', boost: 1 });
    expect(parse({ exists: { field: 'persons' } })).toEqual({ kind: 'exists', field: 'persons', boost: 1 });
    expect(parse({ ids: { values: ['a', 'b'] } })).toEqual({ kind: 'ids', values: ['a', 'b'], boost: 1 });
    expect(parse({ prefix: { text: 'Mon' } })).toEqual(text([{ text: 'Mon', form: 'prefix', fuzziness: 0 }]));
    expect(parse({ wildcard: { text: { value: 'M?nat*' } } })).toEqual(text([{ text: 'M?nat*', form: 'pattern', fuzziness: 0 }]));
    expect(parse({ wildcard: { text: { wildcard: 'Monat*' } } })).toEqual(text([{ text: 'Monat', form: 'prefix', fuzziness: 0 }]));
    expect(parse({ fuzzy: { text: 'Aufklarung' } })).toEqual(text([plain('Aufklarung', 'AUTO')]));
    expect(parse({ fuzzy: { text: { value: 'Aufklarung', fuzziness: 1, transpositions: true } } })).toEqual(text([plain('Aufklarung', 1)]));
    expect(message({ prefix: { label: 'Br' } })).toBe(
      'The prefix query on the keyword field "label" (only the text fields text, htr, persons take it here) (at query.prefix.label) is not supported by this search server.',
    );
  });
});

describe('compound queries', () => {
  it('reads bool with single clauses or arrays, resolving minimum_should_match', () => {
    const brief = { match: { text: 'brief' } };
    const deu = { term: { language: 'deu' } };
    const query = parse({ bool: { must: brief, filter: [deu], should: [brief, brief, brief], must_not: { exists: { field: 'deskew' } }, minimum_should_match: '-1', boost: 2 } });
    expect(query).toMatchObject({ kind: 'bool', must: [{ kind: 'text' }], filter: [{ kind: 'terms' }], mustNot: [{ kind: 'exists' }], minimumShouldMatch: 2, boost: 2 });
    expect(parse({ bool: { should: [brief, deu] } })).toMatchObject({ minimumShouldMatch: 1 });
    expect(parse({ bool: { filter: deu, should: [brief] } })).toMatchObject({ minimumShouldMatch: 0 });
    expect(parse({ bool: {} })).toEqual({ kind: 'match_all', boost: 1 });
    expect(parse({ bool: { must_not: deu } })).toMatchObject({ must: [{ kind: 'match_all' }], mustNot: [{ kind: 'terms' }] });
  });

  it('reads constant_score as a filter scoring its boost, and dis_max as should clauses', () => {
    expect(parse({ constant_score: { filter: { term: { language: 'deu' } }, boost: 1.5 } })).toEqual({
      kind: 'bool',
      must: [{ kind: 'match_all', boost: 1.5 }],
      should: [],
      filter: [{ kind: 'terms', field: 'language', values: ['deu'], boost: 1 }],
      mustNot: [],
      minimumShouldMatch: 0,
      boost: 1,
    });
    expect(parse({ dis_max: { queries: [{ match: { text: 'a' } }, { match: { htr: 'a' } }], tie_breaker: 0.7 } })).toMatchObject({
      kind: 'bool',
      should: [{ kind: 'text' }, { kind: 'text' }],
      minimumShouldMatch: 1,
    });
  });

  it('names unsupported and unknown query types with where they are', () => {
    const error = refusal(() => parse({ bool: { must: [{ match_all: {} }, { nested: { path: 'x', query: {} } }] } }));
    expect(error).toMatchObject({ status: 400, code: 'search_unsupported', details: { type: 'parsing_exception', at: 'query.bool.must[1]' } });
    expect(error.message).toBe('The query type "nested" (at query.bool.must[1]) is not supported by this search server.');
    expect(message({ function_score: {} })).toBe('The query type "function_score" (at query) is not supported by this search server.');
    expect(message({ bool: { should: { matchh: {} } } })).toMatch(/^"matchh" \(at query\.bool\.should\) is not a query type Elasticsearch knows\. This server runs: match_all, match_none, match,/);
    expect(message({ match_all: {}, match_none: {} })).toBe('A query object (at query) has 2 keys ("match_all", "match_none"); it must have exactly one.');
    expect(message({ bool: { must: [{}] } })).toBe('A query object (at query.bool.must[0]) is empty; it must have exactly one.');
    expect(message({ bool: { must: 'x' } })).toBe('The query (at query.bool.must) must be an object such as {"match": …}, not a string ("x").');
  });
});
