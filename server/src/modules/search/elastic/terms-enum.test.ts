import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startElasticCluster, type ElasticTestCluster } from '../../../test-support/elastic-cluster.js';
import { searchResponse, suggestResponse } from '../../../test-support/elastic-responses.js';
import type { SearchScope } from '../query.js';
import { ElasticForwarder } from './forwarder.js';
import { prefixPattern } from './terms-enum.js';

const CHARTERS = { id: '6a1f0c3e-0000-4000-8000-000000000001', name: 'charters' };
const SET_A = '0b7a1e2c-0000-4000-8000-00000000000a';
const reader: SearchScope = { indices: [CHARTERS], setIds: [SET_A] };

describe('forwardTermsEnum', () => {
  let cluster: ElasticTestCluster;
  let forwarder: ElasticForwarder;
  beforeEach(async () => {
    cluster = await startElasticCluster();
    forwarder = new ElasticForwarder(cluster.config());
  });
  afterEach(() => cluster.close());

  it('suggests words of the text fields from the completion field, only of the caller’s sets', async () => {
    cluster.answer({
      status: 200,
      body: suggestResponse('pim_words', 'aufk', [
        { text: 'Aufklärung', index: 'pim-charters', id: 'img-2', sets: [SET_A] },
        { text: 'Aufkauf', index: 'pim-charters', id: 'img-1', sets: [SET_A] },
      ]),
    });
    const res = await forwarder.forwardTermsEnum(reader, { field: 'text', string: 'aufk', size: 8 });
    const [req] = cluster.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/pim-charters/_search', query: { ignore_unavailable: 'true' } });
    expect(JSON.parse(req!.body)).toEqual({
      size: 0,
      _source: false,
      suggest: { pim_words: { prefix: 'aufk', completion: { field: 'pim_words', size: 8, skip_duplicates: true, contexts: { set: [SET_A] } } } },
    });
    expect(res).toEqual({ _shards: { total: 1, successful: 1, failed: 0 }, terms: ['Aufkauf', 'Aufklärung'], complete: true });
  });

  it('suggests from every document for an admin (no context)', async () => {
    cluster.answer({ status: 200, body: suggestResponse('pim_words', 'kant', []) });
    await forwarder.forwardTermsEnum({ indices: [CHARTERS], setIds: null }, { field: 'persons', string: 'kant' });
    expect(JSON.parse(cluster.requests[0]!.body).suggest.pim_words.completion).toEqual({ field: 'pim_words', size: 10, skip_duplicates: true });
  });

  it('lists values of a keyword field by a terms aggregation over the caller’s documents', async () => {
    cluster.answer({ status: 200, body: searchResponse([], 3, { pim_terms: [{ key: 'Urkunden 1200', doc_count: 2 }, { key: 'Urkunden 1300', doc_count: 1 }] }) });
    const languageFilter = { term: { language: 'deu' } };
    const res = await forwarder.forwardTermsEnum(reader, { field: 'imageSet.keyword', string: 'urk', size: 5, case_insensitive: true, index_filter: languageFilter, timeout: '1s' });
    expect(JSON.parse(cluster.requests[0]!.body)).toEqual({
      size: 0,
      _source: false,
      timeout: '1s',
      query: { bool: { filter: [{ terms: { imageSetUuid: [SET_A] } }, languageFilter] } },
      aggs: { pim_terms: { terms: { field: 'imageSet.keyword', size: 5, order: { _key: 'asc' }, include: '[uU][rR][kK].*' } } },
    });
    expect(res).toMatchObject({ terms: ['Urkunden 1200', 'Urkunden 1300'], complete: true });
  });

  it('says the list may be incomplete when a shard failed', async () => {
    const body = { ...suggestResponse('pim_words', 'a', [{ text: 'an', index: 'pim-charters', id: 'i', sets: [SET_A] }]), _shards: { total: 2, successful: 1, skipped: 0, failed: 1 } };
    cluster.answer({ status: 200, body });
    expect(await forwarder.forwardTermsEnum(reader, { field: 'text', string: 'a' })).toEqual({ _shards: { total: 2, successful: 1, failed: 1 }, terms: ['an'], complete: false });
  });

  it('answers no terms without asking the cluster when the caller may read no set or no index', async () => {
    const empty = { _shards: { total: 0, successful: 0, failed: 0 }, terms: [], complete: true };
    expect(await forwarder.forwardTermsEnum({ indices: [CHARTERS], setIds: [] }, { field: 'text', string: 'auf' })).toEqual(empty);
    expect(await forwarder.forwardTermsEnum({ indices: [], setIds: null }, { field: 'text', string: 'auf' })).toEqual(empty);
    expect(cluster.requests).toEqual([]);
  });

  it.each([
    [{ field: 'pagenumber', string: '1' }, '_terms_enum works on the text fields (text, htr, persons) and the keyword fields (imageUuid, imageSetUuid, imageSet, index, label, language); [pagenumber] is neither.'],
    [{ string: 'a' }, '_terms_enum: field:'],
    [{ field: 'text', search_after: 'auf' }, '_terms_enum: body: Unrecognized key: "search_after"'],
    [{ field: 'language', index_filter: { terms: { imageSetUuid: { index: 'other', id: '1', path: 'sets' } } } }, 'a terms lookup'],
  ])('refuses %j', async (body, message) => {
    await expect(forwarder.forwardTermsEnum(reader, body)).rejects.toMatchObject({ status: 400, message: expect.stringContaining(message) });
    expect(cluster.requests).toEqual([]);
  });
});

describe('prefixPattern', () => {
  it('escapes what Lucene’s regular expressions reserve', () => {
    expect(prefixPattern('f. 1r (a+b)*?', false)).toBe('f\\. 1r \\(a\\+b\\)\\*\\?.*');
    expect(prefixPattern('', true)).toBe('.*');
    expect(prefixPattern('Ä1', true)).toBe('[äÄ]1.*');
  });
});
