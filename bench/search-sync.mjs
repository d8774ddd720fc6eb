// A set's automatic search sync (after an upload, a job that changed text or a corrected line)
// against a reindex of the same set: N pages of generated OCR text (an hOCR transcription each,
// written with SQL) indexed first, then SendToElasticSearch's sync of the unchanged set (which
// writes only documents that changed: none here) and with `allData` (which writes every one), on
// PGlite and on a throwaway PostgreSQL 15. The sync's cost is reading the set and building its
// documents; before, it wrote every page of the set again.
//
//   node bench/search-sync.mjs   (after `npm run build`; BENCH_SYNC_IMAGES, default 1,000)
import { pathToFileURL } from 'node:url';
import { PgDocumentStore } from '../server/dist/modules/search/engine/pg-store.js';
import { SearchIndexer } from '../server/dist/modules/search/indexer.js';
import { startBenchApp } from './lib/app.mjs';
import { fmt, table, timed } from './lib/measure.mjs';
import { onScratchPostgres } from './lib/postgres.mjs';
import { addOcrTranscriptions, createIndexedImages, withIndexesBuiltAfter } from './lib/search-index.mjs';

/** One database: the unchanged set's sync and its reindex, in ms. */
async function syncsOn(database, images) {
  const bench = await startBenchApp({ database });
  try {
    const db = bench.app.database.db;
    const { index, imageIds } = await createIndexedImages(bench, 'bench', images);
    await addOcrTranscriptions(bench, imageIds);
    const { search } = bench.app.database;
    const store = new PgDocumentStore(search);
    await withIndexesBuiltAfter(bench, () => new SearchIndexer(db, store, { batch: 500, search }).syncImages(imageIds));
    await store.reweigh(index);
    // The server's own indexer, as SendToElasticSearch calls it.
    const indexer = bench.app.services.searchIndexer;
    const sync = await timed(() => indexer.syncImages(imageIds));
    const reindex = await timed(() => indexer.syncImages(imageIds, undefined, undefined, { rewrite: true }));
    if (sync.value.indexed !== 0 || reindex.value.indexed !== images) throw new Error(`wrote ${sync.value.indexed} and ${reindex.value.indexed} documents`);
    return { syncMs: sync.ms, reindexMs: reindex.ms };
  } finally {
    await bench.close();
  }
}

export async function benchSetSync({ images = Number(process.env.BENCH_SYNC_IMAGES ?? 1000) } = {}) {
  const results = [{ label: 'PGlite', ...(await syncsOn({ kind: 'pglite-memory' }, images)) }];
  results.push({ label: 'PostgreSQL', ...(await onScratchPostgres((url) => syncsOn({ kind: 'postgres', url }, images))) });
  const rows = [['', 'sync, unchanged s', 'reindex (allData) s']];
  for (const r of results) rows.push([`  ${r.label}`, fmt(r.syncMs / 1000, 2), fmt(r.reindexMs / 1000, 2)]);
  return {
    title: `Search sync of an unchanged ${images.toLocaleString('en')}-page set (what an upload or a corrected line queues) against its reindex`,
    text: table(rows),
    ratios: results.map((r) => [`search sync of an unchanged set / its reindex (${r.label})`, r.syncMs / r.reindexMs]),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchSetSync();
  console.log(`${r.title}\n${r.text}\n`);
  console.log(table(r.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 3)])));
}
