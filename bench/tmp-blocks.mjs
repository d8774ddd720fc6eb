import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { PgDocumentStore } from '../server/dist/modules/search/engine/pg-store.js';
import { SearchIndexer } from '../server/dist/modules/search/indexer.js';
import { startBenchApp } from './lib/app.mjs';
import { generatePages, makeCorpus } from './lib/ocr-corpus.mjs';
import { createIndexedImages, withIndexesBuiltAfter } from './lib/search-index.mjs';
let recording = false; let sqlMs = 0; let lastSql = ''; const all = new Map();
const orig = PGlite.prototype.execProtocolRawSync;
PGlite.prototype.execProtocolRawSync = function (msg, ...rest) {
  const text = Buffer.from(msg).toString('latin1');
  if (text[0] === 'P' || text[0] === 'Q') lastSql = text.replace(/[^ -~]+/g, ' ').replace(/\s+/g, ' ').slice(0, 110);
  const t0 = performance.now(); const r = orig.call(this, msg, ...rest); const ms = performance.now() - t0;
  if (recording) { sqlMs += ms; const k = lastSql.slice(0, 100); const e = all.get(k) ?? [0, 0, 0]; e[0]++; e[1] += ms; e[2] = Math.max(e[2], ms); all.set(k, e); }
  return r;
};
const images = Number(process.env.IMAGES ?? 1000);
const bench = await startBenchApp({ database: { kind: 'pglite-memory' } });
try {
  const db = bench.app.database.db;
  const { index, imageIds } = await createIndexedImages(bench, 'bench', images);
  for (const batch of generatePages(makeCorpus(19), images, 1000)) {
    const ids = batch.map((p) => imageIds[p.page - 1]);
    await sql`insert into transcription (id, image_id, format, language, clean_text, layout)
      select gen_random_uuid(), i, 'hocr', l, t, '{}'::jsonb from unnest(${ids}::uuid[], ${batch.map((p) => p.language)}::text[], ${batch.map((p) => p.text)}::text[]) as x(i, l, t)`.execute(db);
  }
  const store = new PgDocumentStore(db);
  await withIndexesBuiltAfter(bench, () => new SearchIndexer(db, store, { batch: 500 }).syncImages(imageIds));
  await store.reweigh(index);
  // loop gaps
  const gaps = []; let last = performance.now();
  const timer = setInterval(() => { const now = performance.now(); if (now - last > 30) gaps.push(now - last); last = now; }, 5);
  recording = true;
  const t0 = performance.now();
  await bench.app.services.searchIndexer.syncImages(imageIds, undefined, undefined, { rewrite: true });
  const t1 = performance.now();
  await bench.app.services.searchIndexer.reweigh(index.id);
  const t2 = performance.now();
  recording = false; clearInterval(timer);
  gaps.sort((a, b) => b - a);
  console.log(`sync ${(t1 - t0).toFixed(0)} ms, reweigh ${(t2 - t1).toFixed(0)} ms, sql ${sqlMs.toFixed(0)} ms; loop gaps >30ms: ${gaps.length}, top: ${gaps.slice(0, 10).map((g) => g.toFixed(0)).join(' ')}, sum ${gaps.reduce((a, b) => a + b, 0).toFixed(0)}`);
  for (const [k, [n, total, max]] of [...all].sort((a, b) => b[1][1] - a[1][1]).slice(0, 16)) console.log(`${n}x total ${total.toFixed(0)} max ${max.toFixed(0)}  ${k}`);
} finally { await bench.close(); }
