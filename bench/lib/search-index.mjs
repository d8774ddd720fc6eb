import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { PgDocumentStore } from '../../server/dist/modules/search/engine/pg-store.js';

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
  return { index, imageIds, store: new PgDocumentStore(db) };
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
