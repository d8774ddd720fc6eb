import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchSource } from '@pim/contract';
import { type TestApp, createTestApp } from '../../../test-support/test-app.js';
import { parseSearchRequest } from '../dsl.js';
import type { SearchScope } from '../query.js';
import { bm25Idf, bm25Weight } from './fields.js';
import { PgDocumentStore } from './pg-store.js';
import { runSearch } from './search.js';

/** A fixed pseudo-random sequence, so a failure can be run again. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`);

function source(id: string, setId: string, text: string): SearchSource {
  return {
    imageUuid: id, imageSetUuid: [setId], imageSet: ['Random'], index: 'random', label: id, text, htr: '', persons: [],
    language: null, pagenumber: 1, height: 10, width: 10, ocrConfidence: null, deskew: null, columnCount: null, lineCount: null,
    wordCount: 0, date: new Date(0).toISOString(), thumbnail: '',
  };
}

describe('BM25 top-k', () => {
  let t: TestApp;
  const docs = new Map<string, string[]>();
  let scope: SearchScope;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.database.db;
    const random = seeded(7);
    const index = { id: randomUUID(), name: 'random' };
    const setId = randomUUID();
    const fileId = randomUUID();
    await db.insertInto('search_index').values(index).execute();
    await db.insertInto('document_image_set').values({ id: setId, name: 'Random', search_index_id: index.id }).execute();
    await db.insertInto('stored_file').values({ id: fileId, sha256: 'x', size_bytes: 1, media_type: 'image/png', original_name: 'x.png' }).execute();
    const indexed = [];
    for (let i = 0; i < 300; i++) {
      const id = randomUUID();
      await db.insertInto('document_image').values({ id, file_id: fileId, label: id, width: 10, height: 10 }).execute();
      // Zipf-like: low word numbers are common, high ones rare; lengths vary from 3 to 60 words.
      const words = Array.from({ length: 3 + Math.floor(random() * 58) }, () => WORDS[Math.floor(WORDS.length * random() ** 2.5)]!);
      docs.set(id, words);
      indexed.push({ id, source: source(id, setId, words.join(' ')) });
    }
    const store = new PgDocumentStore(db);
    for (let i = 0; i < indexed.length; i += 50) await store.upsert(index, indexed.slice(i, i + 50));
    await store.reweigh(index);
    scope = { indices: [index], setIds: [setId] };
  }, 120_000);
  afterAll(() => t?.close());

  /** BM25 computed here from the words, independently of the engine. */
  function expected(query: string[]): { id: string; score: number }[] {
    const lengths = [...docs.values()].map((w) => w.length);
    const average = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const terms = [...new Set(query)];
    const df = new Map(terms.map((term) => [term, [...docs.values()].filter((w) => w.includes(term)).length]));
    return [...docs]
      .map(([id, words]) => {
        let score = 0;
        for (const term of terms) {
          const tf = words.filter((w) => w === term).length;
          if (tf) score += bm25Idf(docs.size, df.get(term)!) * bm25Weight(tf, words.length, average);
        }
        return { id, score };
      })
      .filter((d) => d.score > 0)
      .sort((a, b) => b.score - a.score);
  }

  it('ranks as BM25 does, and the best k are those of the full ranking, for many queries', async () => {
    const random = seeded(11);
    for (let q = 0; q < 40; q++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 3) }, () => WORDS[Math.floor(WORDS.length * random())]!);
      const want = expected(query);
      // Both ways: the top-k lists (scoreAllBelow 0) and scoring the whole (small) match set; the text
      // field alone, and every field (where a document read from a list passes by being there).
      const forms = [{ match: { text: query.join(' ') } }, { multi_match: { query: query.join(' '), fields: ['text', 'htr', 'persons'] } }];
      for (const [size, scoreAllBelow, form] of [[1, 0, 0], [5, 0, 0], [20, 0, 0], [5, 2000, 0], [1, 0, 1], [20, 0, 1], [5, 2000, 1]] as const) {
        const res = await runSearch(t.app.database.db, scope, parseSearchRequest({ query: forms[form], size }), { scoreAllBelow });
        const got = res.hits.hits.map((h) => ({ id: h._id, score: h._score! }));
        expect(res.hits.total.value).toBe(want.length);
        expect(got.length).toBe(Math.min(size, want.length));
        got.forEach((hit, i) => {
          // Scores equal to float precision; equal scores may come in either order.
          expect(hit.score).toBeCloseTo(want[i]!.score, 4);
          expect(want.find((w) => w.id === hit.id)!.score).toBeCloseTo(want[i]!.score, 4);
        });
      }
    }
  });
});
