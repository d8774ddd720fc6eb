import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import type { Database } from '../../../platform/db/database.js';
import { migrate } from '../../../platform/db/migrate.js';
import { openTestDatabase } from '../../../test-support/test-db.js';
import { parseSearchRequest } from '../dsl.js';
import type { IndexedDocument, SearchScope } from '../query.js';
import { BLOCK_SIZE, decodeBlock, encodeBlock, limitListCache } from './blocks.js';
import { blockedIndices } from './list-search.js';
import { PgDocumentStore } from './pg-store.js';
import { type SearchOptions, runSearch } from './search.js';

const LANGUAGES = ['de', 'fr', null] as const;

function page(imageId: string, text: string, language: string | null): IndexedDocument {
  return {
    id: imageId,
    source: {
      imageUuid: imageId, imageSetUuid: [], imageSet: [], index: 'blocks', label: imageId, text, htr: '', persons: [], language,
      pagenumber: null, height: 10, width: 10, ocrConfidence: null, deskew: null, columnCount: null, lineCount: null,
      wordCount: text.split(' ').length, date: '2026-01-01T00:00:00.000Z', thumbnail: '',
    },
  };
}

describe('posting blocks', () => {
  it('pack and unpack postings, large gaps and frequencies included', () => {
    const postings = [
      { doc: 7, tf: 1, length: 3, language: 0 },
      { doc: 8, tf: 300, length: 70_000, language: 2 },
      { doc: 2 ** 40, tf: 1, length: 1, language: 255 },
      { doc: 2 ** 40 + 1, tf: 2, length: 2, language: 30_000 },
    ];
    const data = encodeBlock(postings);
    expect(decodeBlock(7, 4, data)).toEqual(postings);
  });

  it('keep as many megabytes of decoded lists as PIM_SEARCH_CACHE_MB says (512 by default)', () => {
    expect(loadConfig({}).searchCacheBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ PIM_SEARCH_CACHE_MB: '0' }).searchCacheBytes).toBe(0);
    expect(() => loadConfig({ PIM_SEARCH_CACHE_MB: 'lots' })).toThrow('PIM_SEARCH_CACHE_MB must be a number of megabytes');
    expect(() => loadConfig({ PIM_SEARCH_CACHE_MB: '-1' })).toThrow('PIM_SEARCH_CACHE_MB must be 0 (keep no lists) or more megabytes');
  });

  describe('in the store', () => {
    let database: Database;
    let store: PgDocumentStore;
    const index = { id: randomUUID(), name: 'blocks' };
    const scope = (): SearchScope => ({ indices: [index], setIds: null });
    const texts = new Map<string, { text: string; language: string | null }>();
    let fileId: string;

    async function image(): Promise<string> {
      const id = randomUUID();
      await sql`insert into document_image (id, file_id, label, width, height) values (${id}, ${fileId}, 'x', 10, 10)`.execute(database.db);
      return id;
    }

    /** Every posting the blocks hold, against what search_posting and the documents say. */
    async function expectBlocksAsPostings(): Promise<void> {
      const blocks = await sql<{ term_id: number; field: number; first_doc: string; last_doc: string; n: number; data: Uint8Array }>`
        select term_id, field, first_doc, last_doc, n, data from search_block where index_id = ${index.id} order by term_id, field, first_doc`.execute(database.db);
      const fromBlocks: string[] = [];
      let previous = null as { key: string; last: number } | null;
      for (const b of blocks.rows) {
        const postings = decodeBlock(Number(b.first_doc), b.n, b.data);
        expect(b.n).toBeLessThanOrEqual(BLOCK_SIZE);
        expect(postings[0]!.doc).toBe(Number(b.first_doc));
        expect(postings.at(-1)!.doc).toBe(Number(b.last_doc));
        // A list's blocks follow each other in document order, without overlap.
        const key = `${b.term_id}:${b.field}`;
        if (previous?.key === key) expect(Number(b.first_doc)).toBeGreaterThan(previous.last);
        previous = { key, last: Number(b.last_doc) };
        for (const p of postings) fromBlocks.push(`${b.term_id}:${b.field}:${p.doc}:${p.tf}:${p.length}:${p.language}`);
      }
      const want = await sql<{ key: string }>`
        select p.term_id || ':' || p.field || ':' || p.doc_id || ':' || p.tf || ':' || d.lengths[p.field + 1] || ':' || coalesce(l.id, 0) as key
        from search_posting p join search_document d on d.id = p.doc_id left join search_language l on l.code = d.language
        where d.index_id = ${index.id}`.execute(database.db);
      expect(fromBlocks.sort()).toEqual(want.rows.map((r) => r.key).sort());
    }

    async function found(query: string, language?: string): Promise<string[]> {
      const match = { multi_match: { query, fields: ['text', 'htr', 'persons'] } };
      const res = await runSearch(
        database.db,
        scope(),
        parseSearchRequest({ query: language ? { bool: { must: [match], filter: [{ term: { language } }] } } : match, size: 10_000 }),
      );
      return res.hits.hits.map((h) => h._id).sort();
    }

    /** A search from the blocks answers as the reference path, which reads no blocks. */
    async function expectAsReference(body: unknown, options: SearchOptions = {}): Promise<void> {
      const request = parseSearchRequest(body);
      const fast = await runSearch(database.db, scope(), request, options);
      const slow = await runSearch(database.db, scope(), request, { shortcuts: false });
      expect(fast.hits.total).toEqual(slow.hits.total);
      expect(fast.hits.hits.map((h) => [h._id, h._score])).toEqual(slow.hits.hits.map((h) => [h._id, h._score]));
    }

    function expected(word: string, language?: string): string[] {
      return [...texts]
        .filter(([, d]) => d.text.split(' ').includes(word) && (language === undefined || d.language === language))
        .map(([id]) => id)
        .sort();
    }

    beforeAll(async () => {
      database = await openTestDatabase();
      await migrate(database);
      store = new PgDocumentStore(database.db);
      fileId = randomUUID();
      await sql`insert into search_index (id, name) values (${index.id}, ${index.name})`.execute(database.db);
      await sql`insert into stored_file (id, sha256, size_bytes, media_type, original_name) values (${fileId}, 'x', 1, 'image/png', 'x.png')`.execute(database.db);
      // "common" in every page, so its list spans several blocks; the others now and then.
      const written: IndexedDocument[] = [];
      for (let i = 0; i < 1_300; i++) {
        const id = await image();
        const text = ['common', ...(i % 3 === 0 ? ['third'] : []), ...(i % 50 === 0 ? ['rare', 'rare'] : []), `word${i % 7}`].join(' ');
        const language = LANGUAGES[i % 3]!;
        texts.set(id, { text, language });
        written.push(page(id, text, language));
      }
      for (let i = 0; i < written.length; i += 400) await store.upsert(index, written.slice(i, i + 400));
    }, 120_000);
    afterAll(() => database?.close());

    it('hold every posting, in order, a block at most BLOCK_SIZE, and are searched', async () => {
      await expectBlocksAsPostings();
      expect(await blockedIndices(database.db, scope())).not.toBeNull();
      expect(await found('rare')).toEqual(expected('rare'));
      expect(await found('third', 'de')).toEqual(expected('third', 'de'));
      expect(await found('common')).toHaveLength(1_300);
      // A phrase of two common words that only a few pages hold: only their blocks are read.
      const few: IndexedDocument[] = [];
      for (let i = 0; i < 5; i++) {
        const id = await image();
        texts.set(id, { text: 'third common', language: 'de' });
        few.push(page(id, 'third common', 'de'));
      }
      await store.upsert(index, few);
      await store.reweigh(index);
      // (Read so from a few blocks of these short lists too.)
      await expectAsReference({ query: { multi_match: { query: 'third common', fields: ['text', 'htr', 'persons'], type: 'phrase' } }, size: 3 }, { fewPerBlock: 10 });
      expect((await runSearch(database.db, scope(), parseSearchRequest({ query: { match_phrase: { text: 'third common' } } }))).hits.total.value).toBe(5);
      // Matches listed first: those the optional word scores come first, the others after with 0.
      await expectAsReference({ query: { bool: { filter: [{ term: { language: 'de' } }], should: [{ match: { text: 'rare' } }] } }, size: 30 });
      await expectAsReference({ query: { multi_match: { query: 'common third', fields: ['text'], operator: 'and' } }, size: 15, from: 5 });
      await expectAsReference({ query: { multi_match: { query: 'common word3', fields: ['text', 'htr', 'persons'], type: 'phrase' } }, size: 10 });
    });

    it('follow removals and rewrites, and a search sees them at once', async () => {
      const phrase = { query: { multi_match: { query: 'rare fresh', fields: ['text', 'htr', 'persons'], type: 'phrase' } }, size: 500, aggs: { l: { terms: { field: 'language' } } } };
      const before = await runSearch(database.db, scope(), parseSearchRequest(phrase));
      expect(await found('rare')).toEqual(expected('rare'));
      const ids = [...texts.keys()];
      const removed = ids.filter((_, i) => i % 4 === 0);
      await store.remove(index, removed);
      for (const id of removed) texts.delete(id);
      const rewritten = ids.filter((_, i) => i % 4 === 1).slice(0, 200);
      for (const id of rewritten) texts.set(id, { text: 'rare fresh', language: 'fr' });
      await store.upsert(index, rewritten.map((id) => page(id, 'rare fresh', 'fr')));
      await expectBlocksAsPostings();
      // The lists this process kept of the index before the writes are not used after them.
      expect(await found('rare')).toEqual(expected('rare'));
      expect(await found('fresh', 'fr')).toEqual(expected('fresh', 'fr'));
      expect(await found('common')).toEqual(expected('common'));
      // The phrase's matches listed before the writes are not used after them.
      const after = await runSearch(database.db, scope(), parseSearchRequest(phrase));
      expect(before.hits.total.value).toBe(0);
      expect(after.hits.hits.map((h) => h._id).sort()).toEqual(rewritten.sort());
      expect(after.aggregations).toEqual({ l: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'fr', doc_count: 200 }] } });
    });

    it('are written for documents indexed before them, and searches wait for that', async () => {
      const ids = [...texts.keys()];
      // As migration 0017 found them: documents without blocks.
      await sql`delete from search_block where index_id = ${index.id}`.execute(database.db);
      await sql`insert into search_unblocked (doc_id, index_id) select id, index_id from search_document where index_id = ${index.id}`.execute(database.db);
      await store.upsert(index, [page(ids[0]!, 'rare', null)]);
      texts.set(ids[0]!, { text: 'rare', language: null });
      expect(await blockedIndices(database.db, scope())).toBeNull();
      expect(await found('rare')).toEqual(expected('rare'));

      expect(await store.fillBlocks(index, 250)).toBe(texts.size - 1);
      expect(await blockedIndices(database.db, scope())).not.toBeNull();
      await expectBlocksAsPostings();
      expect(await found('rare')).toEqual(expected('rare'));
      expect(await found('third', 'de')).toEqual(expected('third', 'de'));
    });

    it('answer the same with no lists kept', async () => {
      limitListCache(0);
      try {
        expect(await found('rare')).toEqual(expected('rare'));
        expect(await found('third', 'de')).toEqual(expected('third', 'de'));
      } finally {
        limitListCache(512 * 1024 * 1024);
      }
    });

    it('are gone with the index cleared', async () => {
      await store.clear(index);
      expect((await sql<{ n: number }>`select count(*)::int as n from search_block where index_id = ${index.id}`.execute(database.db)).rows[0]!.n).toBe(0);
      expect(await found('common')).toEqual([]);
    });
  });
});
