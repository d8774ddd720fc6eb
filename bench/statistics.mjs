// Statistics at scale: the nine `GET pim/statistics/...` calls and `GET pim/dashboard` over
// BENCH_STATISTICS_IMAGES images (1,000,000) on PostgreSQL, asked through the API by an
// administrator (every set) and by a user who may read a part of them. The records are written with
// SQL in bulk (uploading is not what is measured), so the counts are those the triggers keep.
// Baselines: a bare primary-key read (a round trip's worth), and counting the same images per
// month from the records themselves, as a statistic without kept counts would.
import { randomUUID } from 'node:crypto';
import { fmt, quantile, table, timed } from './lib/measure.mjs';
import { scratchDatabase, startPostgres } from './lib/postgres.mjs';
import { startBenchApp } from './lib/app.mjs';
import { STATISTIC_NAMES } from '../contract/dist/index.js';

const IMAGES_PER_SET = 500;
/** Days the collection grew over, up to today. */
const DAYS = 730;
/** Rows written per statement. */
const BATCH = 50_000;
const BUDGET_MS = 100;

export async function benchStatistics({ images = 1_000_000, queries = 50 } = {}) {
  const cluster = await startPostgres({ sharedBuffers: '1GB' });
  const database = await scratchDatabase(cluster.url);
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' }, database: { kind: 'postgres', url: database.url }, admin: true });
  try {
    const { app, auth: adminAuth, userId: adminId } = bench;
    const db = app.database.db;
    const { sql } = await import('kysely');
    const reader = await app.services.users.createLocal({ email: `reader-${Date.now()}@example.org`, name: 'Reader', passwordHash: 'x', admin: false });
    const readerAuth = { authorization: `Bearer ${await app.services.sessions.start(reader.id)}` };
    const sets = Math.ceil(images / IMAGES_PER_SET);
    const setIds = Array.from({ length: sets }, () => randomUUID());
    const indexId = randomUUID();

    const load = await timed(async () => {
      await db.insertInto('search_index').values({ id: indexId, name: 'bench' }).execute();
      // The reader owns every tenth set and may read every fifth of the others (public): about 28% of the images.
      for (let start = 0; start < sets; start += 1000) {
        const chunk = setIds.slice(start, start + 1000);
        await db
          .insertInto('document_image_set')
          .values(
            chunk.map((id, i) => ({
              id,
              name: `Bench set ${start + i}`,
              owner_id: (start + i) % 10 === 0 ? reader.id : adminId,
              public_document_image_set: (start + i) % 5 === 1,
              search_index_id: indexId,
              created_at: new Date(Date.now() - (DAYS * (sets - start - i)) / sets * 86_400_000),
            })),
          )
          .execute();
      }
      // Per image: its file, its row, its membership (added the day it was made), one transcription
      // (half PAGE, a fifth from Transkribus, a fifth from PIM's Tesseract), and for every twentieth
      // image 10 similarity snippets of the built-in model. Days spread over DAYS, newest last.
      await sql`create function bench_uuid(n int) returns uuid language sql immutable as $$
        select (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12))::uuid
        from md5('bench' || n) as h $$`.execute(db);
      for (let start = 0; start < images; start += BATCH) {
        const end = Math.min(images, start + BATCH);
        const numbers = sql`generate_series(${start}::int, ${end}::int - 1) as n`;
        const at = sql`now() - make_interval(secs => (${images}::int - n)::float8 / ${images}::int * ${DAYS}::int * 86400)`;
        await sql`
          insert into stored_file (id, sha256, size_bytes, media_type, original_name, owner_id, created_at)
          select bench_uuid(n), md5('bench' || n) || md5('file' || n), 2000000 + n % 1000000, 'image/jpeg', 'page-' || n || '.jpg', ${adminId}::uuid, ${at}
          from ${numbers}`.execute(db);
        await sql`
          insert into document_image (id, file_id, label, width, height, owner_id, created_at)
          select bench_uuid(n), bench_uuid(n), 'page ' || n, 2000, 3000, ${adminId}::uuid, ${at} from ${numbers}`.execute(db);
        await sql`
          insert into image_set_image (set_id, image_id, position, added_at)
          select (${setIds}::uuid[])[n / ${IMAGES_PER_SET}::int + 1], bench_uuid(n), n % ${IMAGES_PER_SET}::int, ${at} from ${numbers}`.execute(db);
        await sql`
          insert into transcription (id, image_id, format, transcriber, params, clean_text, layout, created_at)
          select gen_random_uuid(), bench_uuid(n),
            case when n % 2 = 0 then 'page' when n % 3 = 0 then 'alto' else 'hocr' end,
            case when n % 5 = 0 then 'Transkribus' else 'other' end,
            case when n % 5 = 1 then '{"job":"Tesseract4Hocr"}'::jsonb end,
            '', '{}'::jsonb, ${at} + interval '1 hour'
          from ${numbers}`.execute(db);
        await sql`
          insert into simple_text_line (id, transcription_id, image_id, line_index, text, region_x, region_y, region_w, region_h)
          select gen_random_uuid(), t.id, t.image_id, l, '', 0, l * 100, 1800, 90
          from ${numbers} join transcription t on t.image_id = bench_uuid(n), generate_series(0, 9) as l
          where n % 20 = 0`.execute(db);
        await sql`
          insert into similarity_snippet (id, model, image_id, line_id, region_x, region_y, region_w, region_h, features, created_at)
          select gen_random_uuid(), 'builtin', l.image_id, l.id, 0, l.region_y, 1800, 90, '{0.5,0.5}'::real[], ${at} + interval '2 hours'
          from ${numbers} join simple_text_line l on l.image_id = bench_uuid(n)
          where n % 20 = 0`.execute(db);
      }
      // Search documents per set, as the search engine keeps them; similarity searches, as the service counts them.
      await sql`insert into search_set_stat (index_id, set_id, docs) select ${indexId}::uuid, s, ${IMAGES_PER_SET}::int from unnest(${setIds}::uuid[]) as s`.execute(db);
      await sql`
        insert into statistic_count (kind, variant, scope, day, n)
        select 'similarity-search', 'find', u, statistic_day(now()) - d, 1 + d % 7
        from unnest(array[${adminId}::uuid, ${reader.id}::uuid]) as u, generate_series(0, ${DAYS}::int) as d`.execute(db);
      await sql`analyze`.execute(db);
    });

    const counted = await sql`select count(*)::int as rows from statistic_count`.execute(db);
    const call = (auth, url) => app.inject({ method: 'GET', url: `/api/pim/${url}`, headers: auth });
    const samples = async (ask) => {
      await ask();
      const times = [];
      for (let i = 0; i < queries; i += 1) {
        const { ms, value } = await timed(ask);
        if (value.statusCode !== 200) throw new Error(`${value.statusCode} ${value.body}`);
        times.push(ms);
      }
      return times;
    };
    const rows = [];
    const ratios = [];
    const bare = await samples(async () => {
      await sql`select id from document_image_set where id = ${setIds[0]}`.execute(db);
      return { statusCode: 200 };
    });
    const scan = await samples(async () => {
      await sql`
        select to_char(date_trunc('month', m.added_at), 'YYYY-MM'), count(*) from image_set_image m
        join document_image_set s on s.id = m.set_id and s.deleted_at is null group by 1`.execute(db);
      return { statusCode: 200 };
    });
    let worst = 0;
    const asked = [...STATISTIC_NAMES.map((name) => [name, `statistics/${name}`]), ['dashboard', 'dashboard']];
    for (const [name, url] of asked) {
      const admin = await samples(() => call(adminAuth, url));
      const user = await samples(() => call(readerAuth, url));
      worst = Math.max(worst, quantile(admin, 0.95), quantile(user, 0.95));
      rows.push([`  ${name}`, fmt(quantile(admin, 0.5)), fmt(quantile(admin, 0.95)), fmt(quantile(user, 0.5)), fmt(quantile(user, 0.95))]);
      ratios.push([`statistics ${name}, admin p95 / bare read p95`, quantile(admin, 0.95) / quantile(bare, 0.95)]);
    }
    rows.push(['  images per month counted from the records (no kept counts)', fmt(quantile(scan, 0.5)), fmt(quantile(scan, 0.95)), '', '']);
    rows.push(['  bare read of one set by primary key (baseline)', fmt(quantile(bare, 0.5)), fmt(quantile(bare, 0.95)), '', '']);
    return {
      title:
        `Statistics on PostgreSQL: ${images.toLocaleString('en')} images in ${sets.toLocaleString('en')} sets over ${DAYS} days, ` +
        `${counted.rows[0].rows.toLocaleString('en')} kept counts, loaded in ${fmt(load.ms / 1000)} s; ${queries} calls each; ` +
        `worst p95 ${fmt(worst)} ms, budget ${BUDGET_MS} ms: ${worst <= BUDGET_MS ? 'within' : 'OVER'}`,
      text: table([['  call', 'admin median ms', 'admin p95 ms', 'reader median ms', 'reader p95 ms'], ...rows]),
      ratios,
    };
  } finally {
    await bench.close();
    await database.drop();
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchStatistics({ images: Number(process.env.BENCH_STATISTICS_IMAGES ?? 1_000_000), queries: Number(process.env.BENCH_STATISTICS_QUERIES ?? 50) });
  console.log(`${result.title}\n${result.text}\n`);
  console.log(table(result.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)])));
}
