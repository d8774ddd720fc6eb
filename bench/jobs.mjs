import { spawn } from 'node:child_process';
import { startBenchApp } from './lib/app.mjs';
import { fmt, quantile, table, timed } from './lib/measure.mjs';

/** The types of the queued jobs: those the built-in worker runs, and GPU work waiting for remote workers. */
const LOCAL_TYPES = ['Tesseract4Hocr', 'SplitPDF', 'ConvertToTiledTiff', 'GenerateManifests', 'Epubify'];
const REMOTE_TYPES = ['P2PaLA', 'KrakenHocr', 'FrogNer', 'SendToElasticSearch', 'SiameseNetwork'];
/** The claim time the queue must keep with 100,000 jobs waiting (issue 15). */
const CLAIM_BUDGET_MS = 50;

/**
 * Claim latency with `queued` jobs of ten types waiting (six in ten for remote workers), for the
 * built-in worker's five types, for one remote type and for a type with none queued, against a
 * bare primary-key read of one job on the same database; and `GET pim/jobs` (a page of the newest
 * jobs, each with its place in the queue) on that queue.
 */
export async function benchClaims({ queued, claims }) {
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' }, admin: true });
  try {
    const { jobQueue: queue } = bench.app.services;
    const db = bench.app.database.db;
    const random = seeded(42);
    const jobs = Array.from({ length: queued }, () => {
      const remote = random() < 0.6;
      const types = remote ? REMOTE_TYPES : LOCAL_TYPES;
      const type = types[Math.floor(random() * types.length)];
      return { type, priority: Math.floor(random() * 101), settings: { jobType: type }, setId: bench.setId, ownerId: bench.userId, apiKeyId: null };
    });
    const made = await timed(() => queue.enqueueMany(jobs));
    const worker = { name: 'bench', host: null, versions: {} };
    const ids = (await db.selectFrom('job').select('id').limit(claims).execute()).map((r) => r.id);

    const pkMs = [];
    for (const id of ids) pkMs.push((await timed(() => db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst())).ms);
    const claimMs = async (types) => {
      const ms = [];
      for (let i = 0; i < claims; i += 1) {
        const claimed = await timed(() => queue.claim(types, worker));
        ms.push(claimed.ms);
        if (claimed.value) await queue.complete(claimed.value.row.uuid, claimed.value.leaseToken);
      }
      return ms;
    };
    const local = await claimMs(LOCAL_TYPES);
    const remote = await claimMs(['P2PaLA']);
    const none = await claimMs(['HarvestIIIF']);
    const listMs = [];
    for (let i = 0; i < claims; i += 1) {
      listMs.push((await timed(() => get(bench, '/api/pim/jobs?pageSize=20'))).ms);
    }

    const row = (name, ms) => [name, fmt(quantile(ms, 0.5), 2), fmt(quantile(ms, 0.99), 2)];
    const worst = Math.max(quantile(local, 0.99), quantile(remote, 0.99), quantile(none, 0.99));
    const p99 = (ms) => quantile(ms, 0.99) / quantile(pkMs, 0.99);
    return {
      title:
        `Job claims: ${queued.toLocaleString('en')} queued jobs of 10 types (queued in ${fmt(made.ms / 1000)} s), ${claims} claims each; ` +
        `worst p99 ${fmt(worst, 2)} ms, budget ${CLAIM_BUDGET_MS} ms: ${worst <= CLAIM_BUDGET_MS ? 'within' : 'OVER'}`,
      text: table([
        ['', 'median ms', 'p99 ms'],
        row('claim, the 5 built-in types', local),
        row('claim, one remote type (P2PaLA)', remote),
        row('claim, a type with none queued', none),
        row('GET pim/jobs (20 newest, places in queue)', listMs),
        row('bare read of one job by primary key', pkMs),
      ]),
      ratios: [
        ['claim (5 types) / primary-key read, p99', p99(local)],
        ['claim (1 type) / primary-key read, p99', p99(remote)],
        ['claim (none queued) / primary-key read, p99', p99(none)],
        ['GET pim/jobs on 100k queued / primary-key read, p99', p99(listMs)],
      ],
    };
  } finally {
    await bench.close();
  }
}

/**
 * `GET pim/jobs` while the built-in worker runs an OCR-like job of `pages` pages (each page a
 * child process busy for PAGE_MS, as Tesseract is), against the same call with no job running;
 * and how long the job takes to show its first progress.
 */
export async function benchListWhileRunning({ pages, calls }) {
  const PAGE_MS = 250;
  const executors = { Tesseract4Hocr: ocrLike(PAGE_MS, pages) };
  const bench = await startBenchApp({ env: { PIM_WORKER: 'true', PIM_JOB_CONCURRENCY: '1' }, executors });
  try {
    // Something to list: jobs waiting for a remote worker.
    for (let i = 0; i < 40; i += 1) await post(bench, '/api/pim/jobs', { imageSet: bench.setId, jobType: 'P2PaLA' });
    for (let i = 0; i < 10; i += 1) await get(bench, '/api/pim/jobs');
    // Each call, as a client's over the network would, lets the server's timers run before the next.
    const measure = async () => {
      const ms = [];
      for (let i = 0; i < calls; i += 1) {
        ms.push((await timed(() => get(bench, '/api/pim/jobs'))).ms);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return ms;
    };
    const idle = await measure();

    const started = process.hrtime.bigint();
    const job = await post(bench, '/api/pim/jobs', { imageSet: bench.setId, jobType: 'Tesseract4Hocr', allData: true });
    let seen;
    for (;;) {
      seen = await get(bench, `/api/pim/jobs/${job.id}`);
      if (seen.progress?.total === pages) break;
      // In-process calls settle without reaching the timers: give the worker's turn back.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const firstProgressMs = Number(process.hrtime.bigint() - started) / 1e6;

    const busy = await measure();
    const after = await get(bench, `/api/pim/jobs/${job.id}`);
    if (after.state !== 'running') throw new Error(`the job stopped running during the measurement: ${after.state} ${after.error ?? ''}`);

    const row = (name, ms) => [name, fmt(quantile(ms, 0.5), 2), fmt(quantile(ms, 0.99), 2)];
    return {
      title:
        `Jobs list while a ${pages}-page OCR-like job runs (a child process per page, ${PAGE_MS} ms of CPU each; ` +
        `first progress ${fmt(firstProgressMs)} ms after the POST, ${after.progress.done} of ${pages} pages done by the end)`,
      text: table([['', 'median ms', 'p99 ms'], row('GET pim/jobs, no job running', idle), row('GET pim/jobs, the job running', busy)]),
      ratios: [['GET pim/jobs p99, job running / idle (issue: within 2)', quantile(busy, 0.99) / quantile(idle, 0.99)]],
    };
  } finally {
    await bench.close();
  }
}

/** An executor shaped like Tesseract over a set: progress at once, then a CPU-bound child process per page. */
function ocrLike(pageMs, total) {
  return async (ctx) => {
    await ctx.progress(0, total, 'starting');
    for (let page = 1; page <= total && !ctx.signal.aborted; page += 1) {
      await busyChild(pageMs, ctx.signal);
      await ctx.progress(page, total, `page ${page}`);
    }
  };
}

function busyChild(ms, signal) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], { stdio: 'ignore' });
    const stop = () => child.kill();
    signal.addEventListener('abort', stop, { once: true });
    child.once('exit', () => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}

async function get(bench, url) {
  const res = await bench.app.inject({ method: 'GET', url, headers: bench.auth });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res.json();
}

async function post(bench, url, payload) {
  const res = await bench.app.inject({ method: 'POST', url, headers: bench.auth, payload });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res.json();
}

/** A fixed-seed generator, so every run queues the same jobs. */
function seeded(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}
