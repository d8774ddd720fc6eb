import type { SearchSource } from '@pim/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjsonLines, startElasticCluster, type ElasticTestCluster } from '../../../test-support/elastic-cluster.js';
import {
  bulkResponse,
  createIndexAcknowledged,
  deleteIndexAcknowledged,
  documentParsingError,
  indexAlreadyExists,
  indexNotFound,
  rejectedExecution,
} from '../../../test-support/elastic-responses.js';
import type { IndexedDocument } from '../query.js';
import { BULK_MAX_BYTES, BULK_MAX_DOCS, ElasticDocumentStore } from './document-store.js';
import { indexDefinition } from './mappings.js';

const CHARTERS = { id: '6a1f0c3e-0000-4000-8000-000000000001', name: 'charters' };
const SET_A = '0b7a1e2c-0000-4000-8000-00000000000a';

function doc(n: number, text = 'Beantwortung der Frage: Was ist Aufklärung? Monatsſchrift Aufklärung'): IndexedDocument {
  const source: SearchSource = {
    imageUuid: `img-${n}`,
    imageSetUuid: [SET_A],
    imageSet: ['Berlinische Monatsschrift'],
    index: 'charters',
    label: `p. ${n}`,
    text,
    htr: '',
    persons: ['Immanuel Kant'],
    language: 'deu',
    pagenumber: n,
    height: 3000,
    width: 2000,
    ocrConfidence: 0.9,
    deskew: 0.1,
    columnCount: 1,
    lineCount: 30,
    wordCount: 200,
    date: '1784-12-01T00:00:00.000Z',
    thumbnail: `https://pim.example.org/iiif/3/img-${n}/full/!200,200/0/default.jpg`,
  };
  return { id: `img-${n}`, source };
}

const created = (n: number) => ({ op: 'index' as const, index: 'pim-charters', id: `img-${n}`, status: 201 });

describe('ElasticDocumentStore', () => {
  let cluster: ElasticTestCluster;
  let store: ElasticDocumentStore;
  beforeEach(async () => {
    cluster = await startElasticCluster();
    store = new ElasticDocumentStore(cluster.config());
  });
  afterEach(() => cluster.close());

  const calls = () => cluster.requests.map((r) => `${r.method} ${r.path}`);

  describe('upsert', () => {
    it('creates a missing index with our mappings, then indexes the documents by image uuid in one _bulk', async () => {
      cluster.answer({ status: 404 }, { status: 200, body: createIndexAcknowledged('pim-charters') }, { status: 200, body: bulkResponse([created(1), created(2)]) });
      await store.upsert(CHARTERS, [doc(1), doc(2)]);

      expect(calls()).toEqual(['HEAD /pim-charters', 'PUT /pim-charters', 'POST /pim-charters/_bulk']);
      expect(JSON.parse(cluster.requests[1]!.body)).toEqual(indexDefinition());
      const bulk = cluster.requests[2]!;
      expect(bulk.headers['content-type']).toBe('application/x-ndjson');
      const lines = ndjsonLines(bulk.body);
      expect(lines).toHaveLength(4);
      expect(lines[0]).toEqual({ index: { _id: 'img-1' } });
      expect(lines[1]).toEqual({
        ...doc(1).source,
        pim_words: ['Beantwortung', 'der', 'Frage', 'Was', 'ist', 'Aufklärung', 'Monatsſchrift', 'Immanuel', 'Kant'],
      });
      expect(lines[2]).toEqual({ index: { _id: 'img-2' } });
    });

    it('leaves an existing index as it is', async () => {
      cluster.answer({ status: 200 }, { status: 200, body: bulkResponse([created(1)]) });
      await store.upsert(CHARTERS, [doc(1)]);
      expect(calls()).toEqual(['HEAD /pim-charters', 'POST /pim-charters/_bulk']);
    });

    it('takes an index another process created meanwhile as created', async () => {
      cluster.answer({ status: 404 }, { status: 400, body: indexAlreadyExists('pim-charters') }, { status: 200, body: bulkResponse([created(1)]) });
      await store.upsert(CHARTERS, [doc(1)]);
      expect(calls()).toEqual(['HEAD /pim-charters', 'PUT /pim-charters', 'POST /pim-charters/_bulk']);
    });

    it('says why the cluster refused to create the index', async () => {
      const invalid = { error: { root_cause: [], type: 'illegal_argument_exception', reason: 'unknown setting [index.analysis.char_filter.pim_letters.mappings]' }, status: 400 };
      cluster.answer({ status: 404 }, { status: 400, body: invalid });
      await expect(store.upsert(CHARTERS, [doc(1)])).rejects.toMatchObject({
        status: 502,
        code: 'search_index_refused',
        message: `The search cluster at ${cluster.config().host} refused to create the index pim-charters: unknown setting [index.analysis.char_filter.pim_letters.mappings]`,
      });
      expect(calls()).toEqual(['HEAD /pim-charters', 'PUT /pim-charters']);
    });

    it(`sends ${BULK_MAX_DOCS} documents a request at most`, async () => {
      const docs = Array.from({ length: BULK_MAX_DOCS * 2 + 3 }, (_, i) => doc(i));
      cluster.answer({ status: 200 }, ...[0, 1, 2].map(() => ({ status: 200, body: bulkResponse([]) })));
      await store.upsert(CHARTERS, docs);
      const bulks = cluster.requests.slice(1).map((r) => ndjsonLines(r.body).length / 2);
      expect(bulks).toEqual([BULK_MAX_DOCS, BULK_MAX_DOCS, 3]);
      expect(ndjsonLines(cluster.requests[3]!.body)[0]).toEqual({ index: { _id: `img-${BULK_MAX_DOCS * 2}` } });
    });

    it('keeps a request near the byte limit, and sends a larger document alone', async () => {
      const page = 'Aufklärung '.repeat(Math.ceil(BULK_MAX_BYTES / 3 / 12));
      const docs = [doc(1, page), doc(2, page), doc(3, page), doc(4, page.repeat(4))];
      cluster.answer({ status: 200 }, ...[0, 1, 2].map(() => ({ status: 200, body: bulkResponse([]) })));
      await store.upsert(CHARTERS, docs);
      const sizes = cluster.requests.slice(1).map((r) => ndjsonLines(r.body).length / 2);
      expect(sizes).toEqual([2, 1, 1]);
      for (const request of cluster.requests.slice(1, 3)) expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(BULK_MAX_BYTES);
    });

    it('fails with the count and the first reason when documents are refused', async () => {
      const refused = { ...created(2), status: 400, error: documentParsingError('img-2') };
      cluster.answer({ status: 200 }, { status: 200, body: bulkResponse([created(1), refused, { ...refused, id: 'img-3' }]) });
      await expect(store.upsert(CHARTERS, [doc(1), doc(2), doc(3)])).rejects.toMatchObject({
        status: 502,
        code: 'search_indexing_failed',
        message: `2 of 3 documents could not be indexed in the search index pim-charters at ${cluster.config().host}; the first, img-2: ${documentParsingError('img-2').reason}`,
      });
    });

    it('fails when the cluster is too busy to take the documents', async () => {
      cluster.answer({ status: 200 }, { status: 429, body: rejectedExecution });
      await expect(store.upsert(CHARTERS, [doc(1)])).rejects.toMatchObject({ status: 503, code: 'search_busy' });
    });

    it('asks nothing for no documents', async () => {
      await store.upsert(CHARTERS, []);
      await store.remove(CHARTERS, []);
      expect(cluster.requests).toEqual([]);
    });
  });

  describe('remove', () => {
    it('deletes the documents by image uuid; those already gone are fine', async () => {
      cluster.answer({
        status: 200,
        body: bulkResponse([
          { op: 'delete', index: 'pim-charters', id: 'img-1', status: 200 },
          { op: 'delete', index: 'pim-charters', id: 'img-9', status: 404 },
        ]),
      });
      await store.remove(CHARTERS, ['img-1', 'img-9']);
      expect(calls()).toEqual(['POST /pim-charters/_bulk']);
      expect(ndjsonLines(cluster.requests[0]!.body)).toEqual([{ delete: { _id: 'img-1' } }, { delete: { _id: 'img-9' } }]);
    });

    it('is done when the index itself does not exist, whole or per item', async () => {
      const missing = indexNotFound('pim-charters').error;
      cluster.answer(
        { status: 404, body: indexNotFound('pim-charters') },
        { status: 200, body: bulkResponse([{ op: 'delete', index: 'pim-charters', id: 'img-1', status: 404, error: { type: missing.type, reason: missing.reason } }]) },
      );
      await store.remove(CHARTERS, ['img-1']);
      await store.remove(CHARTERS, ['img-1']);
      expect(calls()).toEqual(['POST /pim-charters/_bulk', 'POST /pim-charters/_bulk']);
    });

    it('fails on any other item error', async () => {
      cluster.answer({ status: 200, body: bulkResponse([{ op: 'delete', index: 'pim-charters', id: 'img-1', status: 429, error: { type: 'es_rejected_execution_exception', reason: 'rejected execution of primary operation' } }]) });
      await expect(store.remove(CHARTERS, ['img-1'])).rejects.toMatchObject({ status: 502, message: expect.stringContaining('1 of 1 documents could not be removed') });
    });
  });

  describe('clear', () => {
    it('deletes the index and creates it empty with our mappings', async () => {
      cluster.answer({ status: 200, body: deleteIndexAcknowledged }, { status: 200, body: createIndexAcknowledged('pim-charters') });
      await store.clear(CHARTERS);
      expect(calls()).toEqual(['DELETE /pim-charters', 'PUT /pim-charters']);
      expect(JSON.parse(cluster.requests[1]!.body)).toEqual(indexDefinition());
    });

    it('creates the index when there was none', async () => {
      cluster.answer({ status: 404, body: indexNotFound('pim-charters') }, { status: 200, body: createIndexAcknowledged('pim-charters') });
      await store.clear(CHARTERS);
      expect(calls()).toEqual(['DELETE /pim-charters', 'PUT /pim-charters']);
    });
  });
});

describe('indexDefinition', () => {
  it('analyses the searched fields with the letters of old prints mapped, folded and lower-cased', () => {
    const { settings, mappings } = indexDefinition();
    expect(settings.analysis.analyzer.pim_text).toEqual({ type: 'custom', char_filter: ['pim_letters'], tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] });
    expect(settings.analysis.char_filter.pim_letters.mappings).toEqual(expect.arrayContaining(['ſ => s', 'ß => ss', 'æ => ae', 'œ => oe', 'ﬁ => fi']));
    expect(mappings.properties).toMatchObject({
      text: { type: 'text', analyzer: 'pim_text' },
      htr: { type: 'text', analyzer: 'pim_text' },
      persons: { type: 'text', analyzer: 'pim_text' },
      language: { type: 'keyword', fields: { keyword: { type: 'keyword' } } },
      imageSetUuid: { type: 'keyword' },
      pagenumber: { type: 'integer' },
      ocrConfidence: { type: 'float' },
      date: { type: 'date' },
      thumbnail: { type: 'keyword', index: false, doc_values: false },
      pim_words: { type: 'completion', contexts: [{ name: 'set', type: 'category', path: 'imageSetUuid' }] },
    });
    expect(mappings.dynamic).toBe(false);
  });
});
