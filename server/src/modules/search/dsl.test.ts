import { describe, expect, it } from 'vitest';
import { ALL_TEXT_FIELDS as ALL, refusal } from '../../test-support/search-dsl.js';
import { parseMsearchBody, parseSearchRequest, parseTermsEnumRequest } from './dsl.js';

describe('request bodies as search UIs send them', () => {
  it('reads ReactiveSearch 4: a DataSearch (best_fields fuzzy, phrase, phrase_prefix), a MultiList filter, sort and highlight', () => {
    const [header, body] = parseMsearchBody(
      [
        '{"preference":"SearchResult"}',
        JSON.stringify({
          query: {
            bool: {
              must: [
                {
                  bool: {
                    must: [
                      {
                        bool: {
                          should: [
                            { multi_match: { query: 'aufklarung', fields: ['text', 'htr', 'persons'], type: 'best_fields', operator: 'or', fuzziness: 'AUTO' } },
                            { multi_match: { query: 'aufklarung', fields: ['text', 'htr', 'persons'], type: 'phrase', operator: 'or' } },
                            { multi_match: { query: 'aufklarung', fields: ['text', 'htr', 'persons'], type: 'phrase_prefix', operator: 'or' } },
                          ],
                          minimum_should_match: '1',
                        },
                      },
                      { terms: { 'language.keyword': ['deu'] } },
                    ],
                  },
                },
              ],
            },
          },
          size: 20,
          from: 0,
          _source: { includes: ['*'], excludes: [] },
          sort: [{ pagenumber: { order: 'asc' } }],
          highlight: { pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: { text: {}, htr: {} }, require_field_match: false },
        }),
        '{"preference":"language"}',
        JSON.stringify({
          query: { match_all: {} },
          size: 0,
          aggs: { 'language.keyword': { terms: { field: 'language.keyword', size: 10, order: { _count: 'desc' } } } },
        }),
        '',
      ].join('\n'),
    ).map((item) => ({ index: item.index, request: parseSearchRequest(item.body) }));
    expect(header?.index).toBeNull();
    const request = header!.request;
    // The outer bools of one clause each are that clause.
    const inner = request.query;
    expect(inner.kind === 'bool' && inner.must[1]).toEqual({ kind: 'terms', field: 'language', values: ['deu'], boost: 1 });
    const search = inner.kind === 'bool' ? inner.must[0] : null;
    expect(search).toMatchObject({
      kind: 'bool',
      minimumShouldMatch: 1,
      should: [
        { kind: 'text', fields: ALL, words: [{ text: 'aufklarung', form: 'plain', fuzziness: 'AUTO' }], operator: 'or', scoring: 'best_fields' },
        { kind: 'phrase', fields: ALL, text: 'aufklarung', slop: 0, lastIsPrefix: false },
        { kind: 'phrase', fields: ALL, text: 'aufklarung', slop: 0, lastIsPrefix: true },
      ],
    });
    expect(request).toMatchObject({ from: 0, size: 20, sort: [{ field: 'pagenumber', order: 'asc', missing: '_last' }], trackScores: false });
    expect(request.source).toEqual({ includes: expect.arrayContaining(['imageUuid', 'text', 'thumbnail']), excludes: [] });
    expect(request.highlight).toEqual({
      fields: ['text', 'htr'],
      preTag: '<mark>',
      postTag: '</mark>',
      fragmentSize: 100,
      numberOfFragments: 5,
      encoder: 'default',
    });
    expect(body?.request).toMatchObject({
      query: { kind: 'match_all', boost: 1 },
      size: 0,
      aggregations: { 'language.keyword': { kind: 'terms', field: 'language', size: 10, order: { by: '_count', direction: 'desc' }, minDocCount: 1 } },
    });
  });

  it('reads Searchkit 4: the hits search with facets and filters, and its facet-count search', () => {
    const items = parseMsearchBody(
      [
        '{"index":"letters"}',
        JSON.stringify({
          aggs: { language: { terms: { field: 'language', size: 10 } }, imageSet: { terms: { field: 'imageSet.keyword', size: 10 } } },
          query: {
            bool: {
              filter: [{ bool: { should: [{ term: { language: 'deu' } }] } }],
              must: { multi_match: { query: 'monatsschrift berlin', fields: ['text', 'htr', 'persons'] } },
            },
          },
          size: 20,
          from: 40,
          _source: { includes: ['imageUuid', 'label', 'thumbnail', 'query'] },
          highlight: { pre_tags: ['<em>'], post_tags: ['</em>'], fields: { text: { number_of_fragments: 0 }, htr: { number_of_fragments: 0 } } },
        }),
        '{"index":"letters"}',
        JSON.stringify({ aggs: { language: { terms: { field: 'language', size: 10 } } }, query: { bool: { filter: [], must: { match_all: {} } } }, size: 0, from: 0 }),
      ].join('\n'),
    );
    expect(items.map((item) => item.index)).toEqual(['letters', 'letters']);
    const hits = parseSearchRequest(items[0]!.body);
    expect(hits.query).toEqual({
      kind: 'bool',
      must: [
        {
          kind: 'text',
          fields: ALL,
          words: [{ text: 'monatsschrift berlin', form: 'plain', fuzziness: 0 }],
          operator: 'or',
          minimumShouldMatch: null,
          scoring: 'best_fields',
          tieBreaker: 0,
          boost: 1,
        },
      ],
      should: [],
      filter: [{ kind: 'terms', field: 'language', values: ['deu'], boost: 1 }],
      mustNot: [],
      minimumShouldMatch: 0,
      boost: 1,
    });
    expect(hits.from).toBe(40);
    expect(hits.source).toEqual({ includes: ['imageUuid', 'label', 'thumbnail'], excludes: [] });
    expect(hits.aggregations.imageSet).toMatchObject({ field: 'imageSet', size: 10 });
    expect(hits.highlight).toMatchObject({ fields: ['text', 'htr'], fragmentSize: 0, numberOfFragments: 1 });
    const facets = parseSearchRequest(items[1]!.body);
    expect(facets.query).toEqual({ kind: 'match_all', boost: 1 });
  });
});

describe('the search request', () => {
  it('has Elasticsearch defaults: match_all, from 0, size 10, scores, 10,000 hits counted, the whole _source', () => {
    expect(parseSearchRequest({})).toEqual({
      query: { kind: 'match_all', boost: 1 },
      from: 0,
      size: 10,
      sort: [],
      trackScores: true,
      trackTotalHits: 10_000,
      source: { includes: null, excludes: [] },
      aggregations: {},
      postFilter: null,
      highlight: null,
    });
    expect(parseSearchRequest(undefined).size).toBe(10);
  });

  it('takes post_filter apart from the query, so facets keep their counts', () => {
    const request = parseSearchRequest({ query: { match: { text: 'brief' } }, post_filter: { terms: { language: ['deu', 'lat'] } } });
    expect(request.postFilter).toEqual({ kind: 'terms', field: 'language', values: ['deu', 'lat'], boost: 1 });
    expect(request.query.kind).toBe('text');
    expect(refusal(() => parseSearchRequest({ post_filter: { nested: {} } })).message).toBe(
      'The query type "nested" (at post_filter) is not supported by this search server.',
    );
  });

  it('reads sort as a name, an object, an array, with order and missing', () => {
    expect(parseSearchRequest({ sort: 'date' }).sort).toEqual([{ field: 'date', order: 'asc', missing: '_last' }]);
    const request = parseSearchRequest({
      sort: ['_score', { 'label.keyword': 'desc' }, { ocrConfidence: { order: 'DESC', missing: '_first', unmapped_type: 'float' } }, { _doc: {} }],
    });
    expect(request.sort).toEqual([
      { field: '_score', order: 'desc', missing: '_last' },
      { field: 'label', order: 'desc', missing: '_last' },
      { field: 'ocrConfidence', order: 'desc', missing: '_first' },
      { field: '_doc', order: 'asc', missing: '_last' },
    ]);
    expect(request.trackScores).toBe(true);
    expect(parseSearchRequest({ sort: [{ height: 'desc' }] }).trackScores).toBe(false);
    expect(parseSearchRequest({ sort: [{ height: 'desc' }], track_scores: true }).trackScores).toBe(true);
  });

  it('refuses sorts on text fields, unknown fields and custom missing values', () => {
    expect(refusal(() => parseSearchRequest({ sort: [{ text: 'asc' }] })).message).toMatch(/^The field "text" \(at sort\[0\]\.text\) is a text field, which sorting cannot use/);
    expect(refusal(() => parseSearchRequest({ sort: 'title' })).message).toMatch(/^The field "title" \(at sort\) does not exist in the search index\. Text fields: text, htr, persons; keyword fields: imageUuid/);
    expect(refusal(() => parseSearchRequest({ sort: { date: { missing: 0 } } })).code).toBe('search_unsupported');
    expect(refusal(() => parseSearchRequest({ sort: { date: { order: 'up' } } })).message).toBe(
      'The sort order (at sort.date) must be "asc" or "desc", not a string ("up").',
    );
  });

  it('checks from and size: numbers, not negative, within the result window', () => {
    expect(parseSearchRequest({ from: '20', size: '20' })).toMatchObject({ from: 20, size: 20 });
    const wrongType = refusal(() => parseSearchRequest({ size: 'x' }));
    expect(wrongType).toMatchObject({ status: 400, code: 'search_parse', details: { type: 'x_content_parse_exception', at: 'size' } });
    expect(wrongType.message).toBe('The size (at size) must be a number, not a string ("x").');
    expect(refusal(() => parseSearchRequest({ from: -1 })).message).toBe('The from (at from) must be at least 0, not -1.');
    expect(refusal(() => parseSearchRequest({ size: 2.5 })).message).toBe('The size (at size) must be a whole number, not a number (2.5).');
    expect(parseSearchRequest({ from: 9_980, size: 20 }).from).toBe(9_980);
    const window = refusal(() => parseSearchRequest({ from: 9_990, size: 20 }));
    expect(window.message).toBe('Result window is too large: from + size must be at most 10000 but was 10010. Narrow the search or page less deep.');
    expect(window.details).toEqual({ type: 'illegal_argument_exception', at: 'from' });
  });

  it('reads track_total_hits as true, a number or false', () => {
    expect(parseSearchRequest({ track_total_hits: true }).trackTotalHits).toBe(true);
    expect(parseSearchRequest({ track_total_hits: 100 }).trackTotalHits).toBe(100);
    expect(parseSearchRequest({ track_total_hits: false }).trackTotalHits).toBe(0);
    expect(parseSearchRequest({ track_total_hits: -1 }).trackTotalHits).toBe(0);
    expect(refusal(() => parseSearchRequest({ track_total_hits: 'many' })).message).toMatch(/^track_total_hits \(at track_total_hits\) must be a number/);
  });

  it('resolves _source: false, a field, patterns, includes and excludes', () => {
    expect(parseSearchRequest({ _source: false }).source).toBe(false);
    expect(parseSearchRequest({ _source: 'label' }).source).toEqual({ includes: ['label'], excludes: [] });
    expect(parseSearchRequest({ _source: ['image*', 'nothing'] }).source).toEqual({ includes: ['imageUuid', 'imageSetUuid', 'imageSet'], excludes: [] });
    expect(parseSearchRequest({ _source: { excludes: ['text', 'htr'] } }).source).toEqual({ includes: null, excludes: ['text', 'htr'] });
    expect(parseSearchRequest({ _source: { include: '*Count', exclude: 'word*' } }).source).toEqual({
      includes: ['columnCount', 'lineCount', 'wordCount'],
      excludes: ['wordCount'],
    });
    expect(refusal(() => parseSearchRequest({ _source: 3 })).message).toBe('The _source (at _source) must be a string or an array of strings, not a number (3).');
  });

  it('ignores the harmless parameters and refuses the ones it does not run, by name', () => {
    const harmless = { timeout: '1s', stored_fields: ['_source'], docvalue_fields: [], explain: false, version: true, seq_no_primary_term: false, preference: 'x', search_type: 'query_then_fetch' };
    expect(parseSearchRequest(harmless).size).toBe(10);
    for (const key of ['suggest', 'collapse', 'search_after', 'rescore', 'knn', 'pit']) {
      const error = refusal(() => parseSearchRequest({ [key]: {} }));
      expect(error).toMatchObject({ status: 400, code: 'search_unsupported' });
      expect(error.message).toBe(`The parameter "${key}" of the search request (at ${key}) is not supported by this search server.`);
    }
    expect(refusal(() => parseSearchRequest({ explain: true })).message).toBe('"explain": true (at explain) is not supported by this search server.');
    expect(refusal(() => parseSearchRequest({ querry: {} })).message).toMatch(/^The search request has no parameter "querry"\. It takes: query, post_filter, from, size/);
    expect(refusal(() => parseSearchRequest([])).message).toBe('The search request body must be a JSON object, not an array.');
  });
});

describe('aggregations', () => {
  it('reads terms aggregations with size, order and min_doc_count, under aggs or aggregations', () => {
    const request = parseSearchRequest({
      aggregations: {
        langs: { terms: { field: 'language', size: 5, order: { _key: 'asc' }, min_doc_count: 0, shard_size: 50 } },
        sets: { terms: { field: 'imageSet', order: [{ _count: 'asc' }] }, meta: { label: 'Sets' } },
        old: { terms: { field: 'label', order: { _term: 'desc' } } },
      },
    });
    expect(request.aggregations).toEqual({
      langs: { kind: 'terms', field: 'language', size: 5, order: { by: '_key', direction: 'asc' }, minDocCount: 0 },
      sets: { kind: 'terms', field: 'imageSet', size: 10, order: { by: '_count', direction: 'asc' }, minDocCount: 1 },
      old: { kind: 'terms', field: 'label', size: 10, order: { by: '_key', direction: 'desc' }, minDocCount: 1 },
    });
  });

  it('refuses other aggregation types, sub-aggregations, text fields and bad sizes, naming where', () => {
    expect(refusal(() => parseSearchRequest({ aggs: { years: { date_histogram: { field: 'date' } } } })).message).toBe(
      'The aggregation type "date_histogram" (at aggs.years) is not supported by this search server.',
    );
    expect(refusal(() => parseSearchRequest({ aggs: { l: { terms: { field: 'language' }, aggs: {} } } })).message).toBe(
      'A sub-aggregation (at aggs.l.aggs) is not supported by this search server.',
    );
    expect(refusal(() => parseSearchRequest({ aggs: { t: { terms: { field: 'text' } } } })).message).toMatch(/is a text field, which a terms aggregation cannot use/);
    expect(refusal(() => parseSearchRequest({ aggs: { l: { terms: { field: 'language', size: 0 } } } })).message).toBe(
      'The size (at aggs.l.terms.size) must be at least 1, not 0.',
    );
    expect(refusal(() => parseSearchRequest({ aggs: { l: { terms: { field: 'language', missing: 'none' } } } })).code).toBe('search_unsupported');
    expect(refusal(() => parseSearchRequest({ aggs: {}, aggregations: {} })).message).toBe('The search request has both "aggs" and "aggregations"; give one.');
  });
});

describe('highlight', () => {
  const query = { multi_match: { query: 'brief', fields: ['text', 'persons'] } };

  it('highlights the searched fields named, with Elasticsearch defaults', () => {
    expect(parseSearchRequest({ query, highlight: { fields: { '*': {} } } }).highlight).toEqual({
      fields: ['text', 'persons'],
      preTag: '<em>',
      postTag: '</em>',
      fragmentSize: 100,
      numberOfFragments: 5,
      encoder: 'default',
    });
  });

  it('reads fields as an array of objects, tags, sizes, the html encoder and require_field_match', () => {
    const highlight = parseSearchRequest({
      query,
      highlight: {
        fields: [{ htr: {} }, { label: {} }],
        pre_tags: '<b>',
        post_tags: ['</b>'],
        fragment_size: 150,
        number_of_fragments: 3,
        encoder: 'html',
        require_field_match: false,
        type: 'unified',
      },
    }).highlight;
    expect(highlight).toEqual({ fields: ['htr'], preTag: '<b>', postTag: '</b>', fragmentSize: 150, numberOfFragments: 3, encoder: 'html' });
    expect(parseSearchRequest({ query, highlight: { fields: { htr: {} } } }).highlight).toBeNull();
  });

  it('refuses unknown fields, settings it does not run and per-field settings that differ', () => {
    expect(refusal(() => parseSearchRequest({ highlight: { fields: { title: {} } } })).message).toMatch(/^The field "title" \(at highlight\.fields\.title\) does not exist/);
    expect(refusal(() => parseSearchRequest({ highlight: { fields: {}, no_match_size: 100 } })).message).toBe(
      'The parameter "no_match_size" of the highlight (at highlight.no_match_size) is not supported by this search server.',
    );
    expect(
      refusal(() => parseSearchRequest({ query, highlight: { fields: { text: { fragment_size: 50 }, persons: {} } } })).code,
    ).toBe('search_unsupported');
    expect(refusal(() => parseSearchRequest({ highlight: {} })).message).toBe('The highlight (at highlight) needs "fields", the fields to highlight.');
  });
});

describe('_msearch bodies', () => {
  it('reads pairs of lines with blank lines between, without a final newline, index as a string, an array of one or absent', () => {
    const items = parseMsearchBody('{"index":"a"}\n{"size":1}\n\n{"index":["b"]}\r\n{}\n{}\n{"query":{"match_all":{}}}');
    expect(items).toEqual([
      { index: 'a', body: { size: 1 } },
      { index: 'b', body: {} },
      { index: null, body: { query: { match_all: {} } } },
    ]);
  });

  it('names the line of malformed JSON, a header without a body and unknown header keys', () => {
    const broken = refusal(() => parseMsearchBody('{"index":"a"}\n{"query":\n'));
    expect(broken).toMatchObject({ status: 400, code: 'search_parse', details: { type: 'x_content_parse_exception', at: 'line 2' } });
    expect(broken.message).toMatch(/^Line 2 of the _msearch body \(a search body\) is not valid JSON: /);
    expect(refusal(() => parseMsearchBody('{}\n{}\n{"index":"a"}\n')).message).toBe(
      'Line 3 of the _msearch body is a header without a search body after it; each search is a header line and a body line.',
    );
    expect(refusal(() => parseMsearchBody('{"indx":"a"}\n{}\n')).message).toMatch(/^The _msearch header on line 1 \(at line 1\) has no parameter "indx"/);
    expect(refusal(() => parseMsearchBody('[]\n{}\n')).message).toBe('Line 1 of the _msearch body (a header) must be a JSON object, not an array.');
    expect(refusal(() => parseMsearchBody('{"index":["a","b"]}\n{}\n')).message).toMatch(/must be an index name \(or an array of one\), not an array/);
    expect(refusal(() => parseMsearchBody('\n\n')).message).toMatch(/^The _msearch body is empty/);
  });
});

describe('_terms_enum bodies', () => {
  it('reads field, string, size and case_insensitive with their defaults', () => {
    expect(parseTermsEnumRequest({ field: 'text' })).toEqual({ field: 'text', string: '', size: 10, caseInsensitive: false });
    expect(parseTermsEnumRequest({ field: 'label.keyword', string: 'Brie', size: 100, case_insensitive: true, timeout: '1s' })).toEqual({
      field: 'label',
      string: 'Brie',
      size: 100,
      caseInsensitive: true,
    });
  });

  it('refuses index_filter, number fields, sizes over 100 and a missing field', () => {
    expect(refusal(() => parseTermsEnumRequest({ field: 'text', index_filter: { match_all: {} } })).message).toBe(
      'The parameter "index_filter" of the _terms_enum request (at index_filter) is not supported by this search server.',
    );
    expect(refusal(() => parseTermsEnumRequest({ field: 'pagenumber' })).code).toBe('search_unsupported');
    expect(refusal(() => parseTermsEnumRequest({ field: 'text', size: 101 })).message).toBe('The size (at size) may be at most 100, not 101.');
    expect(refusal(() => parseTermsEnumRequest({ string: 'a' })).message).toBe('The _terms_enum request needs a "field", the field whose terms to list.');
    expect(refusal(() => parseTermsEnumRequest({ field: 'title' })).message).toMatch(/^The field "title" \(at field\) does not exist/);
  });
});
