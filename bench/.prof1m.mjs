// scratch profiler (not committed)
import { sql } from 'kysely';
import { startBenchApp } from './lib/app.mjs';
import { quantile, timed } from './lib/measure.mjs';
import { QUERY_KINDS, generatePages, makeCorpus, queryMix } from './lib/ocr-corpus.mjs';
import { scratchDatabase, startPostgres } from './lib/postgres.mjs';
import { existingIndex, search } from './lib/search-index.mjs';
import { runSearch } from '../server/dist/modules/search/engine/search.js';
import { parseSearchRequest } from '../server/dist/modules/search/dsl.js';
const pages = Number(process.env.PAGES ?? 1000000);
const perKind = Number(process.env.PER_KIND ?? 100);
const only = process.env.KIND ?? null;
const cluster = await startPostgres({ keepDir: process.env.DIR ?? '/work/pgbench1m', sharedBuffers: '4GB' });
const scratch = await scratchDatabase(cluster.url, { keep: true });
const bench = await startBenchApp({ env: { PIM_WORKER: 'false' }, admin: true, database: { kind: 'postgres', url: scratch.url } });
try {
  const corpus = makeCorpus(20260101);
  const kept = await existingIndex(bench, `ocr-${pages}`, pages);
  if (!kept) throw new Error('no kept index');
  for (const _ of generatePages(corpus, pages, 500));
  const mix = queryMix(corpus, perKind).filter((q) => !only || q.kind === only);
  for (const seed of [8, 9, 10, 11]) for (const q of queryMix(corpus, perKind, seed).filter((q) => !only || q.kind === only)) await search(bench, kept.index, q.body);
  if (process.env.COMPARE) {
    const db = bench.app.database.db;
    const scope = { indices: [kept.index], setIds: null };
    for (const q of mix.slice(0, Number(process.env.COMPARE))) {
      const request = parseSearchRequest(q.body);
      let t0 = performance.now();
      const fast = await runSearch(db, scope, request);
      const tf = performance.now() - t0;
      t0 = performance.now();
      const slow = await runSearch(db, scope, request, { shortcuts: false });
      const ts = performance.now() - t0;
      const f = fast.hits.hits.map((h) => `${h._id.slice(0, 6)}:${h._score.toFixed(4)}`);
      const s = slow.hits.hits.map((h) => `${h._id.slice(0, 6)}:${h._score.toFixed(4)}`);
      const same = JSON.stringify(f) === JSON.stringify(s);
      const sameSet = JSON.stringify([...f].sort()) === JSON.stringify([...s].sort());
      console.log('CMP', q.kind, same ? 'same' : sameSet ? 'same set' : 'DIFFERENT', JSON.stringify(fast.hits.total), JSON.stringify(slow.hits.total),
        JSON.stringify(fast.aggregations?.language?.buckets) === JSON.stringify(slow.aggregations?.language?.buckets) ? 'facet same' : 'FACET DIFF', tf.toFixed(0), ts.toFixed(0));
      if (!same) console.log(' fast', f.slice(0, 5).join(' '), '\n slow', s.slice(0, 5).join(' '));
    }
  }
  const res = [];
  for (const q of mix) {
    const a = await timed(() => search(bench, kept.index, q.body));
    console.error("Q", q.kind, a.ms.toFixed(1)); console.error("Q", q.kind, a.ms.toFixed(1)); res.push({ kind: q.kind, ms: a.ms, hits: a.value.hits.total.value, rel: a.value.hits.total.relation, q: JSON.stringify(q.body.query.bool?.must?.[0] ?? q.body.query) });
  }
  const all = res.map((r) => r.ms);
  console.log('overall p95', quantile(all, 0.95).toFixed(1), 'median', quantile(all, 0.5).toFixed(1));
  for (const k of QUERY_KINDS) {
    const rs = res.filter((r) => r.kind === k);
    if (!rs.length) continue;
    console.log(`\n${k}: median ${quantile(rs.map((r) => r.ms), 0.5).toFixed(1)} p95 ${quantile(rs.map((r) => r.ms), 0.95).toFixed(1)}`);
    for (const r of rs.sort((a, b) => b.ms - a.ms).slice(0, 6)) console.log(`  ${r.ms.toFixed(1)} ms ${r.hits}${r.rel === 'gte' ? '+' : ''} ${r.q}`);
  }
} finally {
  await bench.close();
  await scratch.drop?.();
  await cluster.stop();
}
