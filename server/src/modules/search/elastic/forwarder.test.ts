import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { ndjsonLines, startElasticCluster, type ElasticTestCluster } from '../../../test-support/elastic-cluster.js';
import { indexNotFound, msearchResponse, queryShardFailure, searchResponse } from '../../../test-support/elastic-responses.js';
import type { SearchScope } from '../query.js';
import { ElasticForwarder } from './forwarder.js';

const CHARTERS = { id: '6a1f0c3e-0000-4000-8000-000000000001', name: 'charters' };
const LETTERS = { id: '6a1f0c3e-0000-4000-8000-000000000002', name: 'letters 1850%' };
const SET_A = '0b7a1e2c-0000-4000-8000-00000000000a';
const SET_B = '0b7a1e2c-0000-4000-8000-00000000000b';
const reader: SearchScope = { indices: [CHARTERS, LETTERS], setIds: [SET_A, SET_B] };
const admin: SearchScope = { indices: [CHARTERS], setIds: null };

const source = (imageUuid: string, text: string) => ({ imageUuid, imageSetUuid: [SET_A], imageSet: ['Urkunden'], index: 'charters', label: 'f. 1r', text, htr: '', persons: [], language: 'deu', pagenumber: 1, height: 3000, width: 2000, ocrConfidence: 0.91, deskew: 0.2, columnCount: 1, lineCount: 31, wordCount: 240, date: '2026-11-02T10:00:00.000Z', thumbnail: 'https://pim.example.org/iiif/3/x/full/!200,200/0/default.jpg' });

const query = { multi_match: { query: 'Aufklarung', fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO', operator: 'and' } };

describe('ElasticForwarder', () => {
  let cluster: ElasticTestCluster;
  let forwarder: ElasticForwarder;
  beforeEach(async () => {
    cluster = await startElasticCluster();
    forwarder = new ElasticForwarder(cluster.config());
  });
  afterEach(() => cluster.close());

  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, code: 'search_request_refused' });
    return err as AppError;
  };

  describe('forwardSearch', () => {
    it('searches the scope’s indices under the prefix, the query narrowed to the caller’s sets, the rest as sent', async () => {
      cluster.answer({
        status: 200,
        body: searchResponse([{ index: 'pim-charters', id: 'img-1', score: 2.3, source: source('img-1', 'Was ist Aufklärung?'), highlight: { text: ['Was ist <em>Aufklärung</em>?'] } }], 1, { language: [{ key: 'deu', doc_count: 1 }] }),
      });
      const body = {
        query,
        from: 20,
        size: 20,
        sort: [{ pagenumber: { order: 'asc' } }],
        aggs: { language: { terms: { field: 'language', size: 10 } } },
        post_filter: { terms: { language: ['deu'] } },
        highlight: { pre_tags: ['\u0001'], post_tags: ['\u0002'], fields: { text: {}, htr: {} } },
        track_total_hits: true,
      };
      const res = await forwarder.forwardSearch(reader, body);

      const [req] = cluster.requests;
      expect(req).toMatchObject({ method: 'POST', path: '/pim-charters,pim-letters%201850%25/_search', query: { ignore_unavailable: 'true' } });
      expect(req!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req!.body)).toEqual({ ...body, query: { bool: { must: [query], filter: [{ terms: { imageSetUuid: [SET_A, SET_B] } }] } } });
      expect(res.hits.hits[0]).toMatchObject({ _index: 'charters', _id: 'img-1', _score: 2.3, highlight: { text: ['Was ist <em>Aufklärung</em>?'] } });
      expect(res.aggregations?.language?.buckets).toEqual([{ key: 'deu', doc_count: 1 }]);
      expect(res.hits.total).toEqual({ value: 1, relation: 'eq' });
    });

    it('wraps match_all when the body has no query, and leaves an admin’s body untouched', async () => {
      cluster.answer({ status: 200, body: searchResponse([]) }, { status: 200, body: searchResponse([]) });
      await forwarder.forwardSearch(reader, { size: 0 });
      await forwarder.forwardSearch(admin, { query, size: 5 });
      expect(JSON.parse(cluster.requests[0]!.body)).toEqual({ size: 0, query: { bool: { must: [{ match_all: {} }], filter: [{ terms: { imageSetUuid: [SET_A, SET_B] } }] } } });
      expect(cluster.requests[1]).toMatchObject({ path: '/pim-charters/_search' });
      expect(JSON.parse(cluster.requests[1]!.body)).toEqual({ query, size: 5 });
    });

    it('filters by an empty list of sets, which matches nothing, when the caller may read none', async () => {
      cluster.answer({ status: 200, body: searchResponse([]) });
      await forwarder.forwardSearch({ indices: [CHARTERS], setIds: [] }, { query });
      expect(JSON.parse(cluster.requests[0]!.body).query.bool.filter).toEqual([{ terms: { imageSetUuid: [] } }]);
    });

    it('answers an empty result without asking the cluster when the scope has no index', async () => {
      const res = await forwarder.forwardSearch({ indices: [], setIds: null }, { query, aggs: { language: { terms: { field: 'language' } } } });
      expect(cluster.requests).toEqual([]);
      expect(res).toMatchObject({ hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] }, aggregations: { language: { buckets: [] } } });
    });

    it.each([
      [{ query, aggs: { all: { global: {}, aggs: { langs: { terms: { field: 'language' } } } } } }, '[global]: a global aggregation counts every document of the index'],
      [{ query, aggs: { by: { terms: { field: 'language' }, aggs: { odd: { significant_terms: { field: 'label' } } } } } }, '[significant_terms]'],
      [{ query, suggest: { words: { text: 'aufk', term: { field: 'text' } } } }, '[suggest]: suggesters read the vocabulary of the whole index'],
      [{ query: { bool: { filter: [{ terms: { imageSetUuid: { index: 'pim-other', id: '1', path: 'sets' } } }] } } }, 'a terms lookup'],
      [{ query: { more_like_this: { fields: ['text'], like: [{ _index: 'pim-other', _id: '1' }] } } }, '[more_like_this]'],
      [{ knn: { field: 'vector', query_vector: [1], k: 10, num_candidates: 10 } }, '[knn]'],
      [{ query, script_fields: { x: { script: 'params._source' } } }, 'Searching through PIM does not support [script_fields] in a search body.'],
      [{ query, pit: { id: 'abc' } }, '[pit]'],
    ])('refuses what reaches past the caller’s documents: %j', async (body, message) => {
      const err = await refusal(forwarder.forwardSearch(reader, body));
      expect(err.message).toContain(message);
      expect(err.details).toMatchObject({ elastic: { error: { type: 'illegal_argument_exception', reason: err.message }, status: 400 } });
      expect(cluster.requests).toEqual([]);
    });

    it('lets an aggregation be named like a refused construct', async () => {
      cluster.answer({ status: 200, body: searchResponse([]) });
      await forwarder.forwardSearch(reader, { size: 0, aggs: { global: { terms: { field: 'language', order: { _count: 'desc' } } } } });
      expect(cluster.requests).toHaveLength(1);
    });

    it('refuses a body that is not an object', async () => {
      expect((await refusal(forwarder.forwardSearch(reader, [query]))).message).toBe('A search body must be a JSON object.');
    });

    it('passes the cluster’s refusal of a query on as a 400 with its reason', async () => {
      cluster.answer({ status: 400, body: queryShardFailure('pim-charters') });
      const err = await refusal(forwarder.forwardSearch(reader, { query: { range: { pagenumber: { gte: 'many' } } } }));
      expect(err.message).toBe('failed to create query: For input string: "many"');
    });
  });

  describe('forwardMsearch', () => {
    it('sends one NDJSON body with a scoped header and body per search, and answers in order', async () => {
      cluster.answer({
        status: 200,
        body: msearchResponse([
          searchResponse([{ index: 'pim-charters', id: 'img-1', score: 1.2, source: source('img-1', 'Aufklärung') }]),
          searchResponse([], 1, { language: [{ key: 'deu', doc_count: 1 }] }),
        ]),
      });
      const facet = { size: 0, query, aggs: { language: { terms: { field: 'language', size: 10 } } } };
      const res = await forwarder.forwardMsearch(reader, [
        { index: null, body: { query, size: 20 } },
        { index: 'charters', body: facet },
      ]);

      const [req] = cluster.requests;
      expect(req).toMatchObject({ method: 'POST', path: '/_msearch' });
      expect(req!.headers['content-type']).toBe('application/x-ndjson');
      const scoped = (q: unknown) => ({ bool: { must: [q], filter: [{ terms: { imageSetUuid: [SET_A, SET_B] } }] } });
      expect(ndjsonLines(req!.body)).toEqual([
        { index: ['pim-charters', 'pim-letters 1850%'], ignore_unavailable: true },
        { query: scoped(query), size: 20 },
        { index: ['pim-charters'], ignore_unavailable: true },
        { ...facet, query: scoped(query) },
      ]);
      expect(res.took).toBe(7);
      expect(res.responses).toHaveLength(2);
      expect(res.responses[0]).toMatchObject({ status: 200, hits: { hits: [{ _index: 'charters', _id: 'img-1' }] } });
      expect(res.responses[1]).toMatchObject({ aggregations: { language: { buckets: [{ key: 'deu', doc_count: 1 }] } } });
    });

    it('answers an index outside the scope and a refused body in their place, sending the others', async () => {
      cluster.answer({ status: 200, body: msearchResponse([searchResponse([])]) });
      const res = await forwarder.forwardMsearch(reader, [
        { index: 'secret', body: { query } },
        { index: 'charters,letters 1850%', body: { query } },
        { index: null, body: { query, suggest: {} } },
      ]);
      expect(ndjsonLines(cluster.requests[0]!.body)).toHaveLength(2);
      expect(res.responses[0]).toEqual({
        error: {
          root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [secret]', 'resource.type': 'index_or_alias', 'resource.id': 'secret', index: 'secret' }],
          type: 'index_not_found_exception',
          reason: 'no such index [secret]',
          'resource.type': 'index_or_alias',
          'resource.id': 'secret',
          index: 'secret',
        },
        status: 404,
      });
      expect(res.responses[1]).toMatchObject({ status: 200, hits: { hits: [] } });
      expect(res.responses[2]).toMatchObject({ error: { type: 'illegal_argument_exception' }, status: 400 });
    });

    it('keeps a failed search among the responses, as the cluster sends it', async () => {
      cluster.answer({ status: 200, body: msearchResponse([indexNotFound('pim-charters'), searchResponse([])]) });
      const res = await forwarder.forwardMsearch(admin, [
        { index: null, body: { query } },
        { index: null, body: { query } },
      ]);
      expect(res.responses[0]).toMatchObject({ error: { type: 'index_not_found_exception', index: 'pim-charters' }, status: 404 });
    });

    it('asks the cluster nothing when no search has an index to go to', async () => {
      const res = await forwarder.forwardMsearch({ indices: [], setIds: [] }, [{ index: null, body: { query } }]);
      expect(cluster.requests).toEqual([]);
      expect(res).toMatchObject({ took: 0, responses: [{ status: 200, hits: { total: { value: 0 } } }] });
    });

    it('fails with 502 when the cluster answers another number of searches', async () => {
      cluster.answer({ status: 200, body: msearchResponse([]) });
      await expect(forwarder.forwardMsearch(admin, [{ index: null, body: {} }])).rejects.toMatchObject({ status: 502, message: expect.stringContaining('answered 1 searches with 0 responses') });
    });
  });
});
