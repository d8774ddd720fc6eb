// One database's part of bench/jobs.mjs `benchListWhileRunning`, in a process of its own (so what
// an earlier part left in memory does not weigh on this one's server): the built server in-process
// with an OCR-like executor and the real SendToElasticSearch, a client in another process
// (paced-client.mjs) calling the lists over HTTP. Forked by jobs.mjs; told
// `{ kind: 'measure', database, pages, calls, images }`, it answers `{ kind: 'measured', result }`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { sendToElasticSearch } from '../../server/dist/jobs/executors/send-to-elastic-search.js';
import { spawner } from '../../server/dist/platform/processes/spawner.js';
import { PgDocumentStore } from '../../server/dist/modules/search/engine/pg-store.js';
import { SearchIndexer } from '../../server/dist/modules/search/indexer.js';
import { startBenchApp } from './app.mjs';
import { forked } from './forked.mjs';
import { timed } from './measure.mjs';
import { addOcrTranscriptions, createIndexedImages, withIndexesBuiltAfter } from './search-index.mjs';

/**
 * A page of the OCR-like job: this long in a child process of its own, as Tesseract's (which takes
 * seconds for a printed page on one thread). The job outlasts the measurements: a reindex of
 * 5,000 pages on PGlite takes minutes.
 */
export const PAGE_MS = 1000;
/** A client's pause between two calls. */
export const PAUSE_MS = 5;
/** Sets the set list shows besides the bench's own. */
const OTHER_SETS = 19;

/** The list calls measured, in the order the client makes them in each round. */
export const LIST_CALLS = [
  { name: 'GET pim/documentimageset', path: () => '/api/pim/documentimageset' },
  { name: 'GET pim/jobs', path: () => '/api/pim/jobs' },
  { name: 'GET pim/documentimageset/{uuid}/documentimages', path: (setId) => `/api/pim/documentimageset/${setId}/documentimages?pageSize=50` },
];

/**
 * The three states on one database: `calls` rounds idle, `calls` rounds while the OCR-like job
 * runs, and rounds from the reindex's POST until it ends, the OCR job still running.
 */
async function listsOn(database, { pages, calls, images }) {
  const executors = { Tesseract4Hocr: ocrLike(PAGE_MS, pages), SendToElasticSearch: sendToElasticSearch };
  const bench = await startBenchApp({ env: { PIM_WORKER: 'true', PIM_JOB_CONCURRENCY: '2' }, executors, database });
  const client = forked(fileURLToPath(new URL('./paced-client.mjs', import.meta.url)));
  try {
    await client.next('ready');
    const loaded = await timed(() => fillSet(bench, images));
    // The measured reindex replaces documents, as a reindex does. These first ones are written by
    // the indexer in steps of 500 with the secondary indexes built after (not what is measured).
    const indexed = await timed(async () => {
      const { db, search } = bench.app.database;
      const store = new PgDocumentStore(search);
      await withIndexesBuiltAfter(bench, () => new SearchIndexer(db, store, { batch: 500, search }).syncImages(loaded.value.imageIds));
      await store.reweigh(loaded.value.index);
    });
    const reindexJob = { imageSet: bench.setId, jobType: 'SendToElasticSearch', allData: true };

    await bench.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = bench.app.server.address();
    const ask = { urls: LIST_CALLS.map((c) => `http://127.0.0.1:${port}${c.path(bench.setId)}`), headers: bench.auth, pauseMs: PAUSE_MS };
    // The server's event loop delay in each state: how long a request may wait on this thread.
    const loopDelay = [];
    const measure = async (rounds) => {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      try {
        return (await client.ask({ kind: 'measure', ...ask, calls: rounds }, 'measured')).times;
      } finally {
        delay.disable();
        loopDelay.push({ p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 });
      }
    };
    await measure(10);
    const idle = await measure(calls);

    const started = performance.now();
    const ocr = await post(bench, '/api/pim/jobs', { imageSet: bench.setId, jobType: 'Tesseract4Hocr', allData: true });
    while ((await get(bench, `/api/pim/jobs/${ocr.id}`)).progress?.total !== pages) await delay(20);
    const firstProgressMs = performance.now() - started;
    const whileOcr = await measure(calls);

    const reindexStarted = performance.now();
    const reindex = await post(bench, '/api/pim/jobs', reindexJob);
    const measuring = measure(null);
    const ended = await jobEnd(bench, reindex.id);
    const reindexMs = performance.now() - reindexStarted;
    client.send({ kind: 'stop' });
    const whileBoth = await measuring;
    if (ended.state !== 'done') throw new Error(`the reindex ended ${ended.state}: ${ended.error}`);
    const after = await get(bench, `/api/pim/jobs/${ocr.id}`);
    if (after.state !== 'running') throw new Error(`the OCR job stopped running during the measurement: ${after.state} ${after.error ?? ''}`);
    const documents = await sql`select count(*)::int as n from search_document`.execute(bench.app.database.search);
    if (documents.rows[0].n !== images) throw new Error(`the reindex left ${documents.rows[0].n} documents, not ${images}`);
    return {
      loadMs: loaded.ms,
      indexMs: indexed.ms,
      firstProgressMs,
      reindexMs,
      pagesDone: after.progress.done,
      rssMb: process.memoryUsage().rss / 1e6,
      times: [idle, whileOcr, whileBoth],
      // The warm-up's first, then one a state.
      loopDelay: loopDelay.slice(1),
    };
  } finally {
    await client.close();
    await bench.close();
  }
}

/**
 * The bench's set in a search index with `images` pages of generated OCR text (an hOCR
 * transcription each, written with SQL: uploading is not what is measured), other sets to list,
 * and 40 jobs waiting for a remote worker to list; gives the index and the images.
 */
async function fillSet(bench, images) {
  const { index, imageIds } = await createIndexedImages(bench, 'bench', images);
  await addOcrTranscriptions(bench, imageIds);
  for (let i = 0; i < OTHER_SETS; i += 1) await post(bench, '/api/pim/documentimageset/create', { imageset: `Bench set ${i + 1}` }, 201);
  for (let i = 0; i < 40; i += 1) await post(bench, '/api/pim/jobs', { imageSet: bench.setId, jobType: 'P2PaLA' });
  return { index, imageIds };
}

/**
 * The job once it has ended, its state read twice a second by its primary key, then the job as the
 * API gives it. Not `GET pim/jobs/{id}` twice a second: on PGlite that call takes about ten times
 * the set list's time on the server's thread (8.5 against 0.8 ms p50, in process, on a busy
 * machine), and set list calls that met one waited for the bench's own traffic, not the jobs' work.
 */
async function jobEnd(bench, id) {
  const { db } = bench.app.database;
  for (;;) {
    const row = await sql`select state from job where id = ${id}`.execute(db);
    if (['done', 'failed', 'cancelled'].includes(row.rows[0]?.state)) return get(bench, `/api/pim/jobs/${id}`);
    await delay(500);
  }
}

/** An executor shaped like Tesseract over a set: progress at once, then a CPU-bound child process per page, started as Tesseract's are. */
export function ocrLike(pageMs, total) {
  return async (ctx) => {
    await ctx.progress(0, total, 'starting');
    for (let page = 1; page <= total && !ctx.signal.aborted; page += 1) {
      await busyChild(pageMs, ctx.signal);
      await ctx.progress(page, total, `page ${page}`);
    }
  };
}

/** A page's child process, started as the server starts Tesseract's: through its spawner's process. */
async function busyChild(ms, signal) {
  await spawner.run(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], { signal }).catch(() => undefined);
}

export async function get(bench, url) {
  const res = await bench.app.inject({ method: 'GET', url, headers: bench.auth });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res.json();
}

export async function post(bench, url, payload, status = 200) {
  const res = await bench.app.inject({ method: 'POST', url, headers: bench.auth, payload });
  if (res.statusCode !== status) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res.json();
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.on('message', (message) => {
    if (message.kind === 'close') process.disconnect();
    else if (message.kind === 'measure') {
      listsOn(message.database, message).then(
        (result) => process.send({ kind: 'measured', result }),
        (error) => process.send({ kind: 'error', message: error.stack ?? error.message }),
      );
    }
  });
}
