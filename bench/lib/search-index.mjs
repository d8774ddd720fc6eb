import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { PgDocumentStore } from '../../server/dist/modules/search/engine/pg-store.js';
import { generatePages, makeCorpus } from './ocr-corpus.mjs';

/**
 * A search index holding the bench's set, and `count` document images in the set (one stored
 * file behind them all: the search documents only need real rows for their foreign keys).
 * Written with SQL, as a migration would, because uploading real files is not what is measured.
 */
export async function createIndexedImages(bench, name, count) {
  const db = bench.app.database.db;
  const index = { id: randomUUID(), name };
  await sql`insert into search_index (id, name) values (${index.id}, ${name})`.execute(db);
  await sql`update document_image_set set search_index_id = ${index.id} where id = ${bench.setId}`.execute(db);
  const fileId = randomUUID();
  await sql`
    insert into stored_file (id, sha256, size_bytes, media_type, original_name, owner_id)
    values (${fileId}, ${'0'.repeat(64)}, 1, 'image/jpeg', 'bench.jpg', ${bench.userId})`.execute(db);
  const imageIds = Array.from({ length: count }, () => randomUUID());
  for (let i = 0; i < count; i += 5000) {
    const ids = imageIds.slice(i, i + 5000);
    const positions = ids.map((_, j) => i + j + 1);
    await sql`
      insert into document_image (id, file_id, label, width, height, page_number, owner_id)
      select id, ${fileId}, 'page ' || n, 2480, 3508, n, ${bench.userId} from unnest(${ids}::uuid[], ${positions}::int[]) as x(id, n)`.execute(db);
    await sql`
      insert into image_set_image (set_id, image_id, position)
      select ${bench.setId}, id, n from unnest(${ids}::uuid[], ${positions}::int[]) as x(id, n)`.execute(db);
  }
  return { index, imageIds, store: new PgDocumentStore(bench.app.database.search) };
}

/**
 * A page of generated OCR text (ocr-corpus.mjs, the same every run) for each of these images, as
 * an hOCR transcription written with SQL.
 */
export async function addOcrTranscriptions(bench, imageIds) {
  const db = bench.app.database.db;
  for (const batch of generatePages(makeCorpus(19), imageIds.length, 1000)) {
    const ids = batch.map((p) => imageIds[p.page - 1]);
    await sql`
      insert into transcription (id, image_id, format, language, clean_text, layout)
      select gen_random_uuid(), i, 'hocr', l, t, '{}'::jsonb
      from unnest(${ids}::uuid[], ${batch.map((p) => p.language)}::text[], ${batch.map((p) => p.text)}::text[]) as x(i, l, t)`.execute(db);
  }
}

/**
 * The index `name` of an earlier run on a kept database when it holds `count` documents (its
 * images and postings are all there), else null.
 */
export async function existingIndex(bench, name, count) {
  const db = bench.app.database.db;
  const found = await sql`
    select i.id, i.name from search_index i where i.name = ${name}`.execute(db);
  const row = found.rows[0];
  if (!row) return null;
  const { search } = bench.app.database;
  const held = await sql`select count(*)::int as n from search_document where index_id = ${row.id}`.execute(search);
  if (held.rows[0].n === count) return { index: { id: row.id, name: row.name }, store: new PgDocumentStore(search) };
  // Left half-loaded (a run stopped): start again.
  await sql`delete from search_document where index_id = ${row.id}`.execute(search);
  await sql`delete from search_index where id = ${row.id}`.execute(db);
  return null;
}

/**
 * Loads as a bulk load does: the secondary indexes of the search tables and the postings' primary
 * and foreign keys are dropped, `load` runs, and they are made again from their definitions (an
 * index sorted once instead of updated row by row, a foreign key checked by one join instead of a
 * trigger per posting). The store reads none of them while it adds new documents. The tables end
 * as the migration and the store leave them.
 */
export async function withIndexesBuiltAfter(bench, load) {
  const db = bench.app.database.search;
  const indexes = await sql`
    select i.indexname, i.indexdef from pg_indexes i
    where i.tablename in ('search_document', 'search_posting') and i.schemaname = current_schema()
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
  const keys = await sql`
    select conname, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = 'search_posting'::regclass and contype in ('p', 'f') order by contype desc`.execute(db);
  for (const { indexname } of indexes.rows) await sql`drop index ${sql.id(indexname)}`.execute(db);
  for (const { conname } of keys.rows) await sql`alter table search_posting drop constraint ${sql.id(conname)}`.execute(db);
  let loaded = false;
  try {
    const result = await load();
    loaded = true;
    return result;
  } finally {
    // Made again even when the load failed, so the database keeps its schema.
    for (const { conname, def } of keys.rows) await sql`alter table search_posting add constraint ${sql.id(conname)} ${sql.raw(def)}`.execute(db);
    for (const { indexdef } of indexes.rows) await sql.raw(indexdef).execute(db);
    if (loaded) await sql`vacuum analyze search_document, search_posting, search_term, search_term_stat, search_term_stem`.execute(db);
  }
}

/** The search document of one page of the bench's set, as the indexer would make it. */
export function pageDocument(bench, index, imageId, { page, text, language }) {
  const wordCount = text.split(/\s+/).filter(Boolean).length;
  return {
    id: imageId,
    source: {
      imageUuid: imageId,
      imageSetUuid: [bench.setId],
      imageSet: ['Bench'],
      index: index.name,
      label: `page ${page}`,
      text,
      htr: '',
      persons: [],
      language,
      pagenumber: page,
      height: 3508,
      width: 2480,
      ocrConfidence: 0.9,
      deskew: 0,
      columnCount: 1,
      lineCount: text.split('\n').length,
      wordCount,
      date: '2026-01-01T00:00:00.000Z',
      thumbnail: `/iiif/3/${imageId}/full/200,/0/default.jpg`,
    },
  };
}

/** `POST pim/elastic/{index}/_search` as the search screen sends it; gives the parsed response. */
export async function search(bench, index, body) {
  const res = await bench.app.inject({ method: 'POST', url: `/api/pim/elastic/${index.name}/_search`, headers: bench.auth, payload: body });
  if (res.statusCode !== 200) throw new Error(`_search answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json();
}
