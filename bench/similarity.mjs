// Similarity search at scale: nearest-neighbour queries over N snippets (BENCH_SIMILARITY_SNIPPETS,
// 100,000) on PostgreSQL, asked by a signed-in user who may read some of the sets, through the API.
// Baseline: the bare work, a brute-force scan of the same vectors in a Float32Array in this process.
import { randomUUID } from 'node:crypto';
import { fmt, quantile, table, timed } from './lib/measure.mjs';
import { scratchDatabase, startPostgres } from './lib/postgres.mjs';
import { startBenchApp } from './lib/app.mjs';

const DIMS = 64;
const LINES_PER_IMAGE = 25;
const IMAGES_PER_SET = 100;
const WRITERS = 200;

/** A seeded generator, so every run searches the same vectors. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Vectors as a descriptor gives them: each writer's lines scattered around the writer's centre, L2-normalised. */
function writerVectors(count, rand) {
  const centres = Array.from({ length: WRITERS }, () => Array.from({ length: DIMS }, () => rand()));
  return Array.from({ length: count }, (_, i) => {
    const writer = Math.floor(i / (LINES_PER_IMAGE * 5)) % WRITERS;
    const v = centres[writer].map((c) => c + (rand() - 0.5) * 0.35);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

export async function benchSimilarity({ snippets = 100_000, queries = 200 } = {}) {
  const cluster = await startPostgres();
  const database = await scratchDatabase(cluster.url);
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' }, database: { kind: 'postgres', url: database.url } });
  try {
    const { app, auth, userId } = bench;
    const db = app.database.db;
    const rand = random(17);
    const vectors = writerVectors(snippets, rand);
    const images = Math.ceil(snippets / LINES_PER_IMAGE);
    const sets = Math.ceil(images / IMAGES_PER_SET);
    const { sql } = await import('kysely');
    // A stranger owns every other set: the caller reads half of the collection, so the access
    // filter is part of what is measured.
    const stranger = await app.services.users.createLocal({ email: `stranger-${Date.now()}@example.org`, name: 'Stranger', passwordHash: 'x', admin: false });
    const fileId = randomUUID();
    await db.insertInto('stored_file').values({ id: fileId, sha256: 'f'.repeat(64), size_bytes: 1, media_type: 'image/png', original_name: 'bench.png' }).execute();
    const setIds = Array.from({ length: sets }, () => randomUUID());
    await db
      .insertInto('document_image_set')
      .values(setIds.map((id, i) => ({ id, name: `Bench set ${i}`, owner_id: i % 2 === 0 ? userId : stranger.id })))
      .execute();
    const imageIds = Array.from({ length: images }, () => randomUUID());
    for (let start = 0; start < images; start += 1000) {
      const chunk = imageIds.slice(start, start + 1000);
      await db.insertInto('document_image').values(chunk.map((id, i) => ({ id, file_id: fileId, label: `page ${start + i}`, width: 2000, height: 3000, owner_id: null }))).execute();
      await db.insertInto('image_set_image').values(chunk.map((id, i) => ({ set_id: setIds[Math.floor((start + i) / IMAGES_PER_SET)], image_id: id, position: (start + i) % IMAGES_PER_SET }))).execute();
      await db
        .insertInto('transcription')
        .values(chunk.map((id) => ({ id, image_id: id, format: 'pagexml', clean_text: '', layout: JSON.stringify({}) })))
        .execute();
    }
    const snippetIds = [];
    const load = await timed(async () => {
      for (let start = 0; start < snippets; start += 2000) {
        const rows = [];
        for (let i = start; i < Math.min(start + 2000, snippets); i += 1) {
          const image = imageIds[Math.floor(i / LINES_PER_IMAGE)];
          rows.push({ line: randomUUID(), snippet: randomUUID(), image, index: i % LINES_PER_IMAGE, vector: vectors[i] });
        }
        snippetIds.push(...rows.map((r) => r.snippet));
        await db
          .insertInto('simple_text_line')
          .values(rows.map((r) => ({ id: r.line, transcription_id: r.image, image_id: r.image, line_index: r.index, text: '', region_x: 0, region_y: r.index * 100, region_w: 1800, region_h: 90 })))
          .execute();
        await sql`
          insert into similarity_snippet (id, model, image_id, line_id, region_x, region_y, region_w, region_h, features)
          select s.id, 'builtin', s.image_id, s.line_id, 0, 0, 1800, 90, s.features::real[]
          from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.snippet, image_id: r.image, line_id: r.line, features: `{${r.vector.join(',')}}` })))}::jsonb)
            as s(id uuid, image_id uuid, line_id uuid, features text)`.execute(db);
      }
    });

    // Queries from snippets of the caller's own (even) sets.
    const readableRows = [];
    for (let i = 0; i < snippets; i += 1) if (Math.floor(Math.floor(i / LINES_PER_IMAGE) / IMAGES_PER_SET) % 2 === 0) readableRows.push(i);
    const picks = Array.from({ length: queries }, () => readableRows[Math.floor(rand() * readableRows.length)]);
    const call = (method, url, payload) => app.inject({ method, url: `/api/pim/${url}`, headers: auth, ...(payload && { payload }) });
    const first = await timed(async () => {
      const res = await call('GET', `siamese/find?id=${snippetIds[picks[0]]}&model=builtin`);
      if (res.statusCode !== 200) throw new Error(`find: ${res.statusCode} ${res.body}`);
    });

    const kinds = {
      'nearest snippets (find)': (i) => call('GET', `siamese/find?id=${snippetIds[i]}&model=builtin`),
      'cosine, features 1..20 (findsinglenew)': (i) => call('GET', `siamese/findsinglenew?uuid=${snippetIds[i]}&model=builtin&usecosine=true&features=1..20`),
      'other sets only (findsinglenewmetadata)': (i) => call('POST', 'siamese/findsinglenewmetadata', { model: 'builtin', exampleUuid: snippetIds[i], onlyDifferentImageSets: true }),
      'nearest images (comparewithimageset)': (i) => call('POST', 'siamese/comparewithimageset', { model: 'builtin', imageUuid: imageIds[Math.floor(i / LINES_PER_IMAGE)] }),
    };
    const rows = [];
    const ratios = [];
    const flat = new Float32Array(snippets * DIMS);
    vectors.forEach((v, i) => flat.set(v, i * DIMS));
    const bare = [];
    for (const i of picks) {
      const { ms } = await timed(async () => bareNearest(flat, i, 50));
      bare.push(ms);
    }
    const bareP95 = quantile(bare, 0.95);
    for (const [kind, ask] of Object.entries(kinds)) {
      const times = [];
      for (const i of picks) {
        const { ms, value } = await timed(() => ask(i));
        if (value.statusCode !== 200) throw new Error(`${kind}: ${value.statusCode} ${value.body}`);
        times.push(ms);
      }
      rows.push([`  ${kind}`, fmt(quantile(times, 0.5)), fmt(quantile(times, 0.95))]);
      ratios.push([`similarity ${kind}, p95 / bare scan p95`, quantile(times, 0.95) / bareP95]);
    }
    rows.push(['  bare brute-force scan (baseline)', fmt(quantile(bare, 0.5)), fmt(bareP95)]);
    return {
      title: `Similarity search: ${snippets.toLocaleString('en')} snippets of ${DIMS} values on PostgreSQL, ${queries} queries a kind (budget: p95 <= 200 ms)`,
      text: [
        `load ${fmt(load.ms / 1000)} s; first query (reads the model's vectors into memory) ${fmt(first.ms)} ms`,
        table([['  query', 'median ms', 'p95 ms'], ...rows]),
      ].join('\n'),
      ratios,
    };
  } finally {
    await bench.close();
    await database.drop();
    await cluster.stop();
  }
}

function bareNearest(flat, row, k) {
  const n = flat.length / DIMS;
  const best = [];
  for (let r = 0; r < n; r += 1) {
    if (r === row) continue;
    let sum = 0;
    for (let d = 0; d < DIMS; d += 1) {
      const diff = flat[row * DIMS + d] - flat[r * DIMS + d];
      sum += diff * diff;
    }
    if (best.length < k) {
      best.push(sum);
      best.sort((a, b) => b - a);
    } else if (sum < best[0]) {
      best[0] = sum;
      best.sort((a, b) => b - a);
    }
  }
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const snippets = Number(process.env.BENCH_SIMILARITY_SNIPPETS ?? 100_000);
  const result = await benchSimilarity({ snippets, queries: Number(process.env.BENCH_SIMILARITY_QUERIES ?? 200) });
  console.log(`${result.title}\n${result.text}\n`);
  console.log(table(result.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)])));
}
