// Benchmarks of the built server (run `npm run build` first): `npm run bench`, or
// `npm run bench -- --hot-paths` for the hot paths alone (issue 19's targets, about ten minutes).
// Every number is a ratio to a baseline measured in the same run (bare sharp work or bare Fastify;
// for text comparison, fastest-levenshtein), so results compare across machines; absolute times
// are printed for context only. The targets are printed last, each beside what was measured.
import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { benchIngest } from './ingest.mjs';
import { benchDescribe } from './describe.mjs';
import { benchClaims, benchListWhileRunning } from './jobs.mjs';
import { benchSearch, searchBenchOptions } from './search.mjs';
import { benchSetSync } from './search-sync.mjs';
import { benchSimilarity } from './similarity.mjs';
import { benchStatistics } from './statistics.mjs';
import { benchSimilarityWriters, similarityBenchOptions } from './similarity-writers.mjs';
import { fmt, table } from './lib/measure.mjs';
import { benchTextCompare } from './text-compare.mjs';
import { benchTiles } from './tiles.mjs';
import { benchHttp } from './http.mjs';
import { benchPaging } from './paging.mjs';
import { benchWeb } from './web.mjs';
import { onScratchPostgres } from './lib/postgres.mjs';

const count = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (Number.isInteger(value) && value >= 1 && value <= 1000) return value;
  console.error(`${name} must be a whole number from 1 to 1000.`);
  process.exit(1);
};
const sizes = {
  pages: count('BENCH_PAGES', 30),
  tiles: count('BENCH_TILES', 200),
  pyramidTiles: count('BENCH_PYRAMID_TILES', 200),
  // Thousands of queued jobs; the issue's figure is 100,000.
  queuedThousands: count('BENCH_QUEUED_THOUSANDS', 100),
  claims: count('BENCH_CLAIMS', 200),
  ocrPages: count('BENCH_OCR_PAGES', 1000),
  describeRounds: count('BENCH_DESCRIBE_ROUNDS', 3),
};
// BENCH_CRANFIELD_DIR, BENCH_SEARCH_PAGES (20,000), BENCH_SEARCH_QUERIES (200 a kind), BENCH_SEARCH_DATABASE_URL, BENCH_SEARCH_POSTGRES.
const searchOptions = searchBenchOptions();
// BENCH_IFORAL_DIR: the iForal dataset for writer retrieval (else a git copy, else the fixtures' four pages alone).
const similarityOptions = similarityBenchOptions();
const hotPathsOnly = process.argv.slice(2).includes('--hot-paths');

// libvips' operation cache would let the second of two identical pipelines (server, then bare)
// reuse the first one's work; without it both sides do all of their work every time.
sharp.cache(false);

const started = Date.now();
console.log(
  `PIM benchmarks: node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), ` +
    `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString()}\n`,
);

if (!fs.existsSync(new URL('../server/dist/app.js', import.meta.url))) {
  console.error('The server is not built: run `npm run build` first.');
  process.exit(1);
}
// Loaded only now, so a missing build gets the sentence above rather than a module error.
const { startBenchApp } = await import('./lib/app.mjs');
const results = [];

// The hot paths (issue 19), each on PGlite and on PostgreSQL.
const pyramid = { width: 8000, height: 6000, count: sizes.pyramidTiles };
results.push(await benchTiles(null, pyramid));
results.push(await onScratchPostgres((url) => benchTiles(null, { ...pyramid, database: { kind: 'postgres', url } })));
results.push(await benchHttp());
results.push(await benchPaging());
results.push(await benchWeb());
results.push(await benchListWhileRunning({ pages: sizes.ocrPages, calls: sizes.claims }));

if (!hotPathsOnly) await theRest();

async function theRest() {
  // The ingest and tile benches wait for pyramids themselves: no job runs beside them.
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' } });
  try {
    results.push(await benchIngest(bench, { pages: sizes.pages, width: 4000, height: 3000 }));
    results.push(await benchTiles(bench, { width: 4000, height: 3000, count: sizes.tiles }));
  } finally {
    await bench.close();
  }
  results.push(await benchTextCompare());
  results.push(await benchDescribe({ rounds: sizes.describeRounds }));
  results.push(...(await benchSimilarityWriters(similarityOptions)));
  // BENCH_SIMILARITY_SNIPPETS (100,000), BENCH_SIMILARITY_QUERIES (200 a kind): nearest neighbours on PostgreSQL.
  results.push(await benchSimilarity({ snippets: Number(process.env.BENCH_SIMILARITY_SNIPPETS ?? 100_000), queries: Number(process.env.BENCH_SIMILARITY_QUERIES ?? 200) }));
  results.push(await benchClaims({ queued: sizes.queuedThousands * 1000, claims: sizes.claims }));
  // BENCH_STATISTICS_IMAGES (1,000,000), BENCH_STATISTICS_QUERIES (50 calls each): the statistics on PostgreSQL.
  results.push(await benchStatistics({ images: Number(process.env.BENCH_STATISTICS_IMAGES ?? 1_000_000), queries: Number(process.env.BENCH_STATISTICS_QUERIES ?? 50) }));
  results.push(...(await benchSearch(searchOptions)));
  // BENCH_SYNC_IMAGES (1,000): a set's automatic search sync against its reindex.
  results.push(await benchSetSync());
}

for (const r of results) console.log(`${r.title}\n${r.text}\n`);
console.log('Ratios (lower is better; 1.00 = as fast as the baseline: bare sharp, fastest-levenshtein for text, a primary-key read for jobs and search; the Cranfield and writer-retrieval ratios are of relevance, higher is better):');
console.log(table(results.flatMap((r) => r.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)]))));
const targets = results.flatMap((r) => r.targets ?? []);
const missed = targets.filter((t) => !t.ok);
console.log(`\nTargets (issue 19), each beside what this run measured: ${missed.length === 0 ? `all ${targets.length} hold` : `${missed.length} of ${targets.length} MISSED`}`);
console.log(table([['', 'measured', 'target', ''], ...targets.map((t) => [`  ${t.name}`, t.measured, t.target, t.ok ? 'holds' : 'MISSED'])]));
console.log(`\nTotal ${fmt((Date.now() - started) / 1000)} s`);
