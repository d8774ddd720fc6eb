import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db/database.js';
import { migrate } from '../../../platform/db/migrate.js';
import { openTestDatabase } from '../../../test-support/test-db.js';
import type { IndexedDocument } from '../query.js';
import { decodeBlock } from './blocks.js';
import { bm25Weight } from './fields.js';
import { PgDocumentStore } from './pg-store.js';

function page(imageId: string, text: string, index = 'books'): IndexedDocument {
  return {
    id: imageId,
    source: {
      imageUuid: imageId, imageSetUuid: [], imageSet: [], index, label: imageId, text, htr: '', persons: [], language: null,
      pagenumber: null, height: 10, width: 10, ocrConfidence: null, deskew: null, columnCount: null, lineCount: null,
      wordCount: text.split(' ').length, date: '2026-01-01T00:00:00.000Z', thumbnail: '',
    },
  };
}

describe('the PostgreSQL document store', () => {
  let database: Database;
  const index = { id: randomUUID(), name: 'books' };
  const images = [randomUUID(), randomUUID()];

  beforeAll(async () => {
    database = await openTestDatabase();
    await migrate(database);
    const fileId = randomUUID();
    await sql`insert into search_index (id, name) values (${index.id}, ${index.name})`.execute(database.db);
    await sql`insert into stored_file (id, sha256, size_bytes, media_type, original_name) values (${fileId}, 'x', 1, 'image/png', 'x.png')`.execute(database.db);
    for (const id of images) {
      await sql`insert into document_image (id, file_id, label, width, height) values (${id}, ${fileId}, 'x', 10, 10)`.execute(database.db);
    }
  });
  afterAll(() => database.close());

  it('reweighs the postings of documents added one by one with the final average length', async () => {
    const store = new PgDocumentStore(database.db);
    // The first page is weighed alone (average 2 terms); the second makes the average 5.
    await store.upsert(index, [page(images[0]!, 'quill ink')]);
    await store.upsert(index, [page(images[1]!, 'quill ink paper seal wax vellum parchment ribbon')]);

    await store.reweigh(index);

    const rows = await sql<{ weight: number }>`
      select p.weight from search_posting p join search_document d on d.id = p.doc_id
      join search_term t on t.id = p.term_id where d.image_id = ${images[0]} and t.term = 'quill'`.execute(database.db);
    expect(rows.rows[0]!.weight).toBeCloseTo(bm25Weight(1, 2, 5), 5);
  });

  it('leaves the planner statistics of the vocabulary and postings after reweighing', async () => {
    await new PgDocumentStore(database.db).reweigh(index);

    const stats = await sql<{ relname: string; reltuples: number }>`
      select relname, reltuples from pg_class where relname in ('search_term', 'search_posting') order by relname`.execute(database.db);
    expect(stats.rows).toEqual([
      { relname: 'search_posting', reltuples: 10 },
      { relname: 'search_term', reltuples: 8 },
    ]);
  });

  it('reweighs every document of an index larger than one step with the final average lengths', async () => {
    const letters = { id: randomUUID(), name: 'letters' };
    await sql`insert into search_index (id, name) values (${letters.id}, ${letters.name})`.execute(database.db);
    const fileId = randomUUID();
    await sql`insert into stored_file (id, sha256, size_bytes, media_type, original_name) values (${fileId}, 'y', 1, 'image/png', 'y.png')`.execute(database.db);
    const words = ['quill', 'ink', 'paper', 'seal', 'wax', 'vellum', 'parchment', 'ribbon', 'letter', 'stamp', 'nib', 'blotter'];
    const store = new PgDocumentStore(database.db);
    // Written one by one, 1 to 12 words each: each page weighed with the average length of its time.
    for (let i = 0; i < 120; i += 1) {
      const id = randomUUID();
      await sql`insert into document_image (id, file_id, label, width, height) values (${id}, ${fileId}, 'y', 10, 10)`.execute(database.db);
      await store.upsert(letters, [page(id, words.slice(0, 1 + (i % words.length)).join(' '), letters.name)]);
    }

    await store.reweigh(letters);

    const postings = await sql<{ tf: number; weight: number; length: number; average: number }>`
      select p.tf, p.weight, d.lengths[p.field + 1] as length, fs.total_length::float8 / fs.doc_count as average
      from search_posting p join search_document d on d.id = p.doc_id join search_field_stat fs on fs.index_id = d.index_id and fs.field = p.field
      where d.index_id = ${letters.id}`.execute(database.db);
    expect(postings.rows).toHaveLength(Array.from({ length: 120 }, (_, i) => 1 + (i % words.length)).reduce((a, b) => a + b, 0));
    for (const p of postings.rows) expect(p.weight).toBeCloseTo(bm25Weight(p.tf, p.length, p.average), 5);
  });

  it('takes the counts of a removed document\'s terms away, and drops those that reach 0', async () => {
    const notes = { id: randomUUID(), name: 'notes' };
    await sql`insert into search_index (id, name) values (${notes.id}, ${notes.name})`.execute(database.db);
    const store = new PgDocumentStore(database.db);
    await store.upsert(notes, [page(images[0]!, 'quill ink', notes.name), page(images[1]!, 'quill paper', notes.name)]);

    await store.remove(notes, [images[1]!]);

    const terms = await sql<{ term: string; df: number }>`
      select t.term, s.df from search_term_stat s join search_term t on t.id = s.term_id where s.index_id = ${notes.id} order by t.term`.execute(database.db);
    expect(terms.rows).toEqual([
      { term: 'ink', df: 1 },
      { term: 'quill', df: 1 },
    ]);
    const languages = await sql<{ term: string; df: number }>`
      select t.term, s.df from search_term_language_stat s join search_term t on t.id = s.term_id where s.index_id = ${notes.id} order by t.term`.execute(database.db);
    expect(languages.rows).toEqual(terms.rows);
  });

  it('writes a page again under the id its document had, its blocks naming it once with the new text', async () => {
    const drafts = { id: randomUUID(), name: 'drafts' };
    await sql`insert into search_index (id, name) values (${drafts.id}, ${drafts.name})`.execute(database.db);
    const store = new PgDocumentStore(database.db);
    await store.upsert(drafts, [page(images[0]!, 'quill ink', drafts.name), page(images[1]!, 'quill paper', drafts.name)]);
    const idOf = async () =>
      Object.fromEntries(
        (await sql<{ image_id: string; id: string }>`select image_id, id from search_document where index_id = ${drafts.id}`.execute(database.db)).rows.map((r) => [r.image_id, r.id]),
      );
    const before = await idOf();

    await store.upsert(drafts, [page(images[0]!, 'quill wax', drafts.name)]);

    expect(await idOf()).toEqual(before);
    const blocks = await sql<{ term: string; first_doc: string; n: number; data: Uint8Array }>`
      select t.term, b.first_doc, b.n, b.data from search_block b join search_term t on t.id = b.term_id
      where b.index_id = ${drafts.id} and b.field = 0 order by t.term, b.first_doc`.execute(database.db);
    const docs = new Map<string, number[]>();
    for (const b of blocks.rows) docs.set(b.term, [...(docs.get(b.term) ?? []), ...decodeBlock(Number(b.first_doc), b.n, b.data).map((p) => p.doc)]);
    const first = Number(before[images[0]!]);
    const second = Number(before[images[1]!]);
    expect(Object.fromEntries(docs)).toEqual({ paper: [second], quill: [first, second].sort((a, b) => a - b), wax: [first] });
  });
});
