import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { startBenchApp } from './lib/app.mjs';
import { fmt, quantile, scanLikeJpegs, table, timed } from './lib/measure.mjs';
import { onScratchPostgres } from './lib/postgres.mjs';

const TILE = 512;
/** Issue 19: a cold tile may cost at most this many times the bare sharp work it needs. */
const TARGET = 1.3;

/**
 * Tile latency: `count` distinct IIIF tiles of one uploaded image, each requested cold (first
 * time: rendered) and then warm (from the derivative cache), against bare sharp doing the same
 * pixel work: extract + resize + JPEG encode of the same region from the file the server reads,
 * the original JPEG or, for an image with a pyramid, the pyramid level that holds the tile's
 * scale. `bench` is an app from startBenchApp; null starts one on `database` (startBenchApp's
 * target, in-memory PGlite by default) for this run alone and closes it after.
 */
export async function benchTiles(bench, { width, height, count, database }) {
  if (!bench) {
    const own = await startBenchApp({ env: { PIM_WORKER: 'false' }, database });
    try {
      return await benchTiles(own, { width, height, count });
    } finally {
      await own.close();
    }
  }
  const dbName = bench.app.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const [original] = await scanLikeJpegs(1, width, height);
  const id = await bench.uploadJpeg(`tiles-${width}x${height}.jpg`, original);
  // Large images get a pyramid in the background after upload; wait for it, as a viewer would
  // usually find it done, and report how long it took.
  const pyramid = await timed(() => bench.app.services.iiif.ensurePyramid(id));
  const originalPath = path.join(bench.dataDir, `original-${width}x${height}.jpg`);
  fs.writeFileSync(originalPath, original);
  const pyramidFile = pyramid.value ? await levelsOf(bench.app.services.files.pathOf(pyramid.value)) : null;

  const { grid, shifted } = tileRequests(width, height);
  const tiles = shuffled([...acrossScales(grid), ...acrossScales(shifted)].slice(0, count));
  const url = (t) => `/iiif/3/${id}/${t.x},${t.y},${t.w},${t.h}/${t.outW},/0/default.jpg`;
  // The body as a stream, read to its end: light-my-request would otherwise decode every JPEG
  // into a UTF-8 string (about a millisecond a tile), work a server writing to a socket never does.
  const get = async (t) => {
    const res = await bench.app.inject({ method: 'GET', url: url(t), headers: bench.auth, payloadAsStream: true });
    let bytes = 0;
    for await (const chunk of res.stream()) bytes += chunk.length;
    if (res.statusCode !== 200 || res.headers['content-type'] !== 'image/jpeg' || bytes === 0) {
      throw new Error(`${url(t)} answered ${res.statusCode} ${res.headers['content-type']} with ${bytes} bytes`);
    }
  };
  const bareOnOriginal = (t) =>
    sharp(originalPath).extract({ left: t.x, top: t.y, width: t.w, height: t.h }).resize(t.outW).jpeg({ quality: 85 }).toBuffer();
  const bare = pyramidFile ? (t) => bareOnLevel(pyramidFile, width, height, t) : bareOnOriginal;

  // Warm-up (not counted), on a region outside the measured ones' cache keys: a 1-px-off tile.
  const warm = { x: 1, y: 1, w: TILE, h: TILE, outW: TILE };
  await get(warm);
  await bare(warm);

  const rendersBefore = bench.app.services.iiif.renders;
  const coldMs = [];
  const bareMs = [];
  for (const t of tiles) {
    coldMs.push((await timed(() => get(t))).ms);
    // The server writes the tile into its cache after answering: let that finish first, so it
    // slows neither the baseline measured next nor the next tile.
    await bench.app.services.files.cacheWritesDone();
    bareMs.push((await timed(() => bare(t))).ms);
  }
  const rendered = bench.app.services.iiif.renders - rendersBefore;
  const warmMs = [];
  for (const t of shuffled(tiles)) warmMs.push((await timed(() => get(t))).ms);
  if (rendered !== tiles.length || bench.app.services.iiif.renders - rendersBefore !== tiles.length) {
    throw new Error(`expected ${tiles.length} renders, cold pass made ${rendered}: the cold/warm split is wrong`);
  }
  // What the pyramid saves: the same tiles cut from the original JPEG (context, not a baseline).
  const originalMs = [];
  if (pyramidFile) for (const t of tiles) originalMs.push((await timed(() => bareOnOriginal(t))).ms);

  const row = (name, ms) => [name, fmt(quantile(ms, 0.5), 2), fmt(quantile(ms, 0.95), 2)];
  const scales = [...new Set(tiles.map((t) => t.scale))].sort((a, b) => a - b).join(', ');
  const source = pyramidFile ? `pyramid of ${pyramidFile.sizes.length} levels made in ${fmt(pyramid.ms / 1000, 2)} s` : 'no pyramid: read from the JPEG';
  const size = `${width}x${height}`;
  const baseline = pyramidFile ? 'bare sharp on the pyramid level' : 'bare sharp on the JPEG';
  const ratio = (ms, q) => quantile(ms, q) / quantile(bareMs, q);
  const coldName = pyramidFile ? 'cold pyramid tile' : `cold ${size} tile`;
  const target = (q, label) => {
    const measured = ratio(coldMs, q);
    return { name: `${coldName} / ${baseline}, ${label} (${dbName})`, measured: fmt(measured, 2), target: `≤ ${TARGET}`, ok: measured <= TARGET };
  };
  return {
    title: `Tiles (${dbName}): ${tiles.length} distinct 512-px tiles of a ${width} x ${height} JPEG, scale factors ${scales} (${source})`,
    text: table([
      ['', 'median ms', 'p95 ms'],
      row('IIIF cold (rendered)', coldMs),
      row('IIIF warm (cached)', warmMs),
      row(`${baseline}: extract+resize+jpeg`, bareMs),
      ...(pyramidFile ? [row('bare sharp on the original JPEG (context)', originalMs)] : []),
    ]),
    ratios: [
      [`${size} tile cold / ${baseline}, median (${dbName})`, ratio(coldMs, 0.5)],
      [`${size} tile cold / ${baseline}, p95 (${dbName})`, ratio(coldMs, 0.95)],
      [`${size} tile warm / ${baseline}, median (${dbName})`, ratio(warmMs, 0.5)],
      [`${size} tile warm / ${baseline}, p95 (${dbName})`, ratio(warmMs, 0.95)],
      ...(pyramidFile ? [[`${size} bare on the pyramid level / bare on the original JPEG, median (${dbName})`, quantile(bareMs, 0.5) / quantile(originalMs, 0.5)]] : []),
    ],
    targets: [target(0.5, 'median'), target(0.95, 'p95')],
  };
}

/** The path of a pyramidal TIFF and the width and height of every page, largest first. */
async function levelsOf(pyramidPath) {
  const { pages = 1 } = await sharp(pyramidPath).metadata();
  const sizes = [];
  for (let page = 0; page < pages; page += 1) {
    const { width, height } = await sharp(pyramidPath, { page }).metadata();
    sizes.push({ width, height });
  }
  return { path: pyramidPath, sizes };
}

/**
 * The work the server must do for a tile of a pyramid: from the smallest level that still has the
 * tile's output resolution, cut the region in that level's pixels and scale it to the output
 * width. The rule is restated here, not imported, so the baseline does not follow the server if
 * it picks a larger level than it needs.
 */
function bareOnLevel(pyramid, width, height, t) {
  const outH = Math.round((t.h * t.outW) / t.w);
  const needed = Math.max(t.outW / t.w, outH / t.h);
  let page = 0;
  pyramid.sizes.forEach((level, i) => {
    if (level.width / width >= needed && level.height / height >= needed) page = i;
  });
  const { width: lw, height: lh } = pyramid.sizes[page];
  const left = Math.floor((t.x * lw) / width);
  const top = Math.floor((t.y * lh) / height);
  const right = Math.min(Math.ceil(((t.x + t.w) * lw) / width), lw);
  const bottom = Math.min(Math.ceil(((t.y + t.h) * lh) / height), lh);
  return sharp(pyramid.path, { page })
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(t.outW)
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Distinct tile regions at every scale factor info.json advertises: the viewer's grid first, then
 * grids shifted by a half and a quarter tile, so there are more distinct regions than grid tiles.
 */
function tileRequests(width, height) {
  const scales = [1];
  while (Math.max(width, height) / scales[scales.length - 1] > TILE) scales.push(scales[scales.length - 1] * 2);
  const seen = new Set();
  const grid = [];
  const shifted = [];
  for (const shift of [0, 0.5, 0.25, 0.75]) {
    for (const scale of scales) {
      const step = TILE * scale;
      for (let y = Math.round(shift * step); y < height; y += step) {
        for (let x = Math.round(shift * step); x < width; x += step) {
          const w = Math.min(step, width - x);
          const h = Math.min(step, height - y);
          const key = `${x},${y},${w},${h}`;
          if (seen.has(key)) continue;
          seen.add(key);
          (shift === 0 ? grid : shifted).push({ scale, x, y, w, h, outW: Math.ceil(w / scale) });
        }
      }
    }
  }
  return { grid, shifted };
}

/** Tiles taken in turn from each scale factor, so a short list still covers every level. */
function acrossScales(tiles) {
  const byScale = [...new Set(tiles.map((t) => t.scale))].map((scale) => shuffled(tiles.filter((t) => t.scale === scale)));
  const out = [];
  for (let i = 0; out.length < tiles.length; i += 1) for (const group of byScale) if (i < group.length) out.push(group[i]);
  return out;
}

/** A fixed-seed shuffle, so every run asks for the same tiles in the same order. */
function shuffled(items) {
  const out = [...items];
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// Alone (`node bench/tiles.mjs`, after `npm run build`): the pyramid case on PGlite and on a
// throwaway PostgreSQL server, BENCH_PYRAMID_TILES tiles (200) each.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  sharp.cache(false);
  const count = Number(process.env.BENCH_PYRAMID_TILES ?? 200);
  const results = [await benchTiles(null, { width: 8000, height: 6000, count })];
  results.push(await onScratchPostgres((url) => benchTiles(null, { width: 8000, height: 6000, count, database: { kind: 'postgres', url } })));
  for (const r of results) console.log(`${r.title}\n${r.text}\n`);
  console.log(table(results.flatMap((r) => r.ratios.map(([name, value]) => [`  ${name}`, fmt(value, 2)]))));
  console.log();
  console.log(table(results.flatMap((r) => r.targets.map((t) => [`  ${t.name}`, t.measured, t.target, t.ok ? 'holds' : 'MISSED']))));
}
