// Paging a large set: `GET pim/documentimageset/{uuid}/documentimages` over a set of
// BENCH_PAGING_IMAGES images (100,000) with half as many again in other sets, on PGlite and on a
// throwaway PostgreSQL server, through the API as the set's owner: every sort either way, the
// label and size filters, the first page and one in the middle. The records are written with SQL in
// bulk (uploading is not what is measured). Baseline: a bare primary-key read of one image on the
// same database (a round trip's worth).
import { pathToFileURL } from 'node:url';
import { fmt, quantile, table, timed } from './lib/measure.mjs';
import { onScratchPostgres } from './lib/postgres.mjs';
import { startBenchApp } from './lib/app.mjs';
import { DOCUMENT_IMAGE_SORTABLE } from '../contract/dist/index.js';

const BUDGET_MS = 50;
const PAGE_SIZE = 50;
/** Sets the other images are in. */
const OTHER_SETS = 5;
/** Rows written per statement. */
const BATCH = 25_000;

/**
 * The filters asked, each with the default sort and with the label sort descending. "scan 0421"
 * matches 100 labels of the set ("Scan 042100.jpg" to "Scan 042199.jpg"); "scan" matches them all.
 */
const FILTERS = [
  ['label, no match', 'label=zz%25not_there'],
  ['label, 100 match', 'label=scan%200421'],
  ['label, all match', 'label=scan'],
  ['width range, about a quarter', 'minWidth=1500&maxWidth=2000'],
  ['width and height ranges', 'minWidth=1500&maxWidth=2000&minHeight=2000&maxHeight=3000'],
  ['width range, no match', 'minWidth=9000'],
];

export async function benchPaging({ images = 100_000, calls = 7, explain = false, upkeep = true } = {}) {
  const others = Math.round(images / 2);
  const results = [];
  results.push(await onDatabase('PGlite', { kind: 'pglite-memory' }, { images, others, calls, explain, settle: upkeep ? 'upkeep' : 'none' }));
  results.push(await onScratchPostgres((url) => onDatabase('PostgreSQL', { kind: 'postgres', url }, { images, others, calls, explain, settle: 'autovacuum' })));
  const size = images.toLocaleString('en');
  return {
    title:
      `Paging a set of ${size} images (and ${others.toLocaleString('en')} in ${OTHER_SETS} other sets), ${PAGE_SIZE} a page, ` +
      `median of ${calls} calls a case; worst case ${results.map((r) => `${r.name} ${fmt(r.worst.ms)} ms (${r.worst.label})`).join(', ')}, ` +
      `budget ${BUDGET_MS} ms; a filter's first page with its count not kept at worst ${results.map((r) => `${r.name} ${fmt(r.worstFresh.ms)} ms (${r.worstFresh.label})`).join(', ')}`,
    text: results.map((r) => `${r.name}${SETTLED[r.settle]}, loaded in ${fmt(r.loadMs / 1000)} s:\n${r.text}${r.plans ? `\n\n${r.plans}` : ''}`).join('\n\n'),
    ratios: results.flatMap((r) => [
      [`paging ${size} images (${r.name}): worst case / primary-key read`, r.worst.ms / r.bareMs],
      [`paging ${size} images (${r.name}): first page in set order / primary-key read`, r.firstMs / r.bareMs],
      [`paging ${size} images (${r.name}): worst first page of a new filter / primary-key read`, r.worstFresh.ms / r.bareMs],
    ]),
    targets: results.map((r) => ({
      name: `paging a ${size}-image set, worst (${r.name}), ms`,
      measured: fmt(r.worst.ms),
      target: `≤ ${BUDGET_MS}`,
      ok: r.worst.ms <= BUDGET_MS,
    })),
  };
}

/** How the tables were left after the bulk load, as the title of each database's table says. */
const SETTLED = { upkeep: ' (after the server\'s own upkeep)', autovacuum: ' (vacuumed, as autovacuum would)', none: ' (as written, never vacuumed)' };

async function onDatabase(name, target, { images, others, calls, explain, settle }) {
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' }, database: target });
  try {
    const { app, auth, setId, userId } = bench;
    const db = app.database.db;
    const { sql } = await import('kysely');
    const load = await timed(() => fill(db, sql, { setId, userId, images, others }));
    // PostgreSQL's autovacuum would have done this by now. PGlite has none: the server's upkeep
    // does its work once the server has been idle for a few seconds; here it is run at once.
    if (settle === 'autovacuum') await sql`vacuum analyze`.execute(db);
    // The main database's upkeep (the first; the search database's follows it on PGlite).
    if (settle === 'upkeep') await app.services.upkeep[0].runOnce();
    const call = async (query) => {
      const res = await app.inject({ method: 'GET', url: `/api/pim/documentimageset/${setId}/documentimages?pageSize=${PAGE_SIZE}&${query}`, headers: auth });
      if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const imageId = (await sql`select bench_uuid(0) as id`.execute(db)).rows[0].id;
    const bare = () => sql`select id, label from document_image where id = ${imageId}`.execute(db);

    const cases = [];
    for (const sort of DOCUMENT_IMAGE_SORTABLE) {
      for (const desc of [false, true]) cases.push({ label: `sort ${sort}${desc ? ' desc' : ''}`, query: `sort=${sort}&desc=${desc}` });
    }
    for (const [label, filter] of FILTERS) {
      cases.push({ label, query: filter, filtered: true });
      cases.push({ label: `${label}, sort label desc`, query: `${filter}&sort=label&desc=true`, filtered: true });
    }
    // Each case's first page and the page in the middle of its matches.
    const asked = [{ label: 'bare', ask: bare }];
    for (const c of cases) {
      const { total } = await call(c.query);
      const middle = Math.floor(total / PAGE_SIZE / 2);
      c.total = total;
      c.middle = middle;
      asked.push({ label: `${c.label}, first page`, query: c.query, ask: () => call(c.query) });
      asked.push({ label: `${c.label}, page ${middle}`, query: `${c.query}&page=${middle}`, ask: () => call(`${c.query}&page=${middle}`) });
    }
    // The server keeps a filter's count for the pages after its first (until the set changes): a
    // filter's first page as a new filter, its count forgotten as a change of the set forgets it.
    for (const c of cases.filter((c) => c.filtered)) {
      asked.push({
        label: `${c.label}, first page, new filter`,
        query: c.query,
        fresh: true,
        ask: () => {
          app.services.changes.bump('members');
          return call(c.query);
        },
      });
    }
    // Rounds over every call, after one to warm up, so a burst of load elsewhere on the machine
    // slows one call of each case rather than all calls of a few.
    const times = new Map(asked.map((a) => [a, []]));
    // The new filters' asks in rounds of their own after the others': each forgets every kept
    // count, which would make the next round's first ask of each filter a new one too.
    for (const group of [asked.filter((a) => !a.fresh), asked.filter((a) => a.fresh)]) {
      for (let round = 0; round <= calls; round += 1) {
        for (const a of group) {
          const { ms } = await timed(a.ask);
          if (round > 0) times.get(a).push(ms);
        }
      }
    }
    const median = (a) => quantile(times.get(a), 0.5);
    const bareMs = median(asked[0]);
    const firstMs = median(asked.find((a) => a.query === 'sort=pageorder&desc=false'));
    const worstOf = (calls) => {
      const call = calls.reduce((w, a) => (median(a) > median(w) ? a : w));
      return { ms: median(call), label: call.label, query: call.query };
    };
    const worst = worstOf(asked.slice(1).filter((a) => !a.fresh));
    const freshCalls = asked.filter((a) => a.fresh);
    const worstFresh = worstOf(freshCalls);
    const freshOf = new Map(freshCalls.map((a) => [a.query, a]));
    const rows = cases.map((c, i) => [
      `  ${c.label}`,
      c.total.toLocaleString('en'),
      fmt(median(asked[1 + 2 * i])),
      freshOf.has(c.query) ? fmt(median(freshOf.get(c.query))) : '',
      String(c.middle),
      fmt(median(asked[2 + 2 * i])),
    ]);
    rows.push(['  bare read of one image by primary key (baseline)', '', fmt(bareMs), '', '', '']);
    return {
      name,
      settle,
      loadMs: load.ms,
      bareMs,
      firstMs,
      worst,
      worstFresh,
      text: table([['  case', 'total', 'first page ms', 'as a new filter', 'middle page', 'middle page ms'], ...rows]),
      plans: explain ? await plansOf(app, setId, worst.query) : null,
    };
  } finally {
    await bench.close();
  }
}

/**
 * `images` images in the bench set and `others` in OTHER_SETS more, all of one stored file, with
 * labels "Scan 000000.jpg" on, sizes, page numbers, dates and analysis values spread (some null),
 * and few distinct column counts (ties).
 */
async function fill(db, sql, { setId, userId, images, others }) {
  const fileId = '00000000-0000-4000-8000-000000000001';
  await db.insertInto('stored_file').values({ id: fileId, sha256: 'b'.repeat(64), size_bytes: 1, media_type: 'image/jpeg', original_name: 'bench.jpg' }).execute();
  const setIds = Array.from({ length: OTHER_SETS }, (_, i) => `00000000-0000-4000-8000-1${String(i).padStart(11, '0')}`);
  await db
    .insertInto('document_image_set')
    .values(setIds.map((id, i) => ({ id, name: `Other set ${i}`, owner_id: userId })))
    .execute();
  await sql`create function bench_uuid(n int) returns uuid language sql immutable as $$
    select (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12))::uuid
    from md5('paging' || n) as h $$`.execute(db);
  const total = images + others;
  const perOther = Math.ceil(others / OTHER_SETS);
  for (let start = 0; start < total; start += BATCH) {
    const numbers = sql`generate_series(${start}::int, ${Math.min(total, start + BATCH)}::int - 1) as n`;
    await sql`
      insert into document_image (id, file_id, label, width, height, page_number, deskew_angle, column_count, lines_count, confidence, owner_id, created_at, updated_at)
      select bench_uuid(n), ${fileId}::uuid, 'Scan ' || lpad(n::text, 6, '0') || '.jpg', 1000 + (n * 37) % 2000, 1500 + (n * 53) % 2500,
        case when n % 10 <> 0 then n % 700 + 1 end,
        case when n % 4 <> 0 then ((n::bigint * 7919) % 2001 - 1000) / 500.0 end,
        1 + n % 3,
        case when n % 5 <> 0 then (n * 31) % 60 end,
        case when n % 7 <> 0 then ((n::bigint * 104729) % 10000) / 10000.0 end,
        ${userId}::uuid,
        now() - make_interval(mins => ${total}::int - n),
        now() - make_interval(mins => ${total}::int - n) + make_interval(secs => (n * 13) % 100000)
      from ${numbers}`.execute(db);
    await sql`
      insert into image_set_image (set_id, image_id, position)
      select case when n < ${images}::int then ${setId}::uuid else (${setIds}::uuid[])[(n - ${images}::int) / ${perOther}::int + 1] end,
        bench_uuid(n), case when n < ${images}::int then n + 1 else (n - ${images}::int) % ${perOther}::int + 1 end
      from ${numbers}`.execute(db);
  }
}

/**
 * EXPLAIN ANALYZE of every statement the route's repository runs for one query, in its transaction
 * and with the planner switches it sets.
 */
async function plansOf(app, setId, query) {
  const { CompiledQuery } = await import('kysely');
  const db = app.database.db;
  const statements = [];
  const watching = db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      statements.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  const { DocumentImageRepository } = await import('../server/dist/modules/documentimages/repository.js');
  const { documentImageListQuerySchema } = await import('../contract/dist/index.js');
  const q = documentImageListQuerySchema.parse({ pageSize: PAGE_SIZE, ...Object.fromEntries(new URLSearchParams(query)) });
  await new DocumentImageRepository(watching).pageOfSet(setId, q);
  const plans = [`  ${query}:`];
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      for (const s of statements) {
        const text = s.sql.replace(/\s+/g, ' ').trim();
        // The set page's own estimate (manyMatchesExpected) is an EXPLAIN already: shown as it is.
        if (text.startsWith('explain')) {
          plans.push(`    ${text}`);
          continue;
        }
        if (text.startsWith('select set_config')) {
          await trx.executeQuery(CompiledQuery.raw(s.sql, [...s.parameters]));
          const settings = s.parameters.flatMap((p, i) => (i % 2 === 0 ? [`${p}=${s.parameters[i + 1]}`] : []));
          plans.push(`    -- planner: ${settings.join(' ')}`);
          continue;
        }
        const plan = await trx.executeQuery(CompiledQuery.raw(`explain (analyze, buffers) ${s.sql}`, [...s.parameters]));
        plans.push(`    ${text}`, ...plan.rows.map((r) => `      ${r['QUERY PLAN']}`));
      }
    });
  return plans.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchPaging({
    images: Number(process.env.BENCH_PAGING_IMAGES ?? 100_000),
    calls: Number(process.env.BENCH_PAGING_CALLS ?? 7),
    explain: process.env.BENCH_PAGING_EXPLAIN === '1',
    upkeep: process.env.BENCH_PAGING_UPKEEP !== '0',
  });
  console.log(`${result.title}\n${result.text}\n`);
  console.log(table(result.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)])));
  console.log(table(result.targets.map((t) => [`  ${t.name}`, t.measured, t.target, t.ok ? 'ok' : 'OVER'])));
}
