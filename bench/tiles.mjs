import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { fmt, quantile, scanLikeJpegs, table, timed } from './lib/measure.mjs';

const TILE = 512;

/**
 * Tile latency: `count` distinct IIIF tiles of one uploaded image, each requested cold (first
 * time: rendered) and then warm (from the derivative cache), against a bare sharp
 * extract + resize + JPEG encode of the same region from the original file.
 */
export async function benchTiles(bench, { width, height, count }) {
  const [original] = await scanLikeJpegs(1, width, height);
  const id = await bench.uploadJpeg(`tiles-${width}x${height}.jpg`, original);
  // Large images get a pyramid in the background after upload; wait for it, as a viewer would
  // usually find it done, and report how long it took.
  const pyramid = await timed(() => bench.app.services.iiif.ensurePyramid(id));
  const originalPath = path.join(bench.dataDir, `original-${width}x${height}.jpg`);
  fs.writeFileSync(originalPath, original);

  const { grid, shifted } = tileRequests(width, height);
  const tiles = shuffled([...acrossScales(grid), ...acrossScales(shifted)].slice(0, count));
  const url = (t) => `/iiif/3/${id}/${t.x},${t.y},${t.w},${t.h}/${t.outW},/0/default.jpg`;
  const get = async (t) => {
    const res = await bench.app.inject({ method: 'GET', url: url(t), headers: bench.auth });
    if (res.statusCode !== 200 || res.headers['content-type'] !== 'image/jpeg') {
      throw new Error(`${url(t)} answered ${res.statusCode} ${res.headers['content-type']}: ${res.body.slice(0, 200)}`);
    }
  };
  const bare = (t) =>
    sharp(originalPath).extract({ left: t.x, top: t.y, width: t.w, height: t.h }).resize(t.outW).jpeg({ quality: 85 }).toBuffer();

  // Warm-up (not counted), on a region outside the measured ones' cache keys: a 1-px-off tile.
  const warm = { x: 1, y: 1, w: TILE, h: TILE, outW: TILE };
  await get(warm);
  await bare(warm);

  const rendersBefore = bench.app.services.iiif.renders;
  const coldMs = [];
  const bareMs = [];
  for (const t of tiles) {
    coldMs.push((await timed(() => get(t))).ms);
    bareMs.push((await timed(() => bare(t))).ms);
  }
  const rendered = bench.app.services.iiif.renders - rendersBefore;
  const warmMs = [];
  for (const t of shuffled(tiles)) warmMs.push((await timed(() => get(t))).ms);
  if (rendered !== tiles.length || bench.app.services.iiif.renders - rendersBefore !== tiles.length) {
    throw new Error(`expected ${tiles.length} renders, cold pass made ${rendered}: the cold/warm split is wrong`);
  }

  const row = (name, ms) => [name, fmt(quantile(ms, 0.5), 2), fmt(quantile(ms, 0.95), 2)];
  const levels = [...new Set(tiles.map((t) => t.scale))].sort((a, b) => a - b).join(', ');
  const source = pyramid.value ? `pyramid made in ${fmt(pyramid.ms / 1000, 2)} s` : 'no pyramid: read from the JPEG';
  const size = `${width}x${height}`;
  const p = (q) => (ms) => quantile(ms, q);
  return {
    title: `Tiles: ${tiles.length} distinct 512-px tiles of a ${width} x ${height} JPEG, scale factors ${levels} (${source})`,
    text: table([
      ['', 'median ms', 'p95 ms'],
      row('IIIF cold (rendered)', coldMs),
      row('IIIF warm (cached)', warmMs),
      row('bare sharp extract+resize+jpeg', bareMs),
    ]),
    ratios: [
      [`${size} tile cold / bare, median`, p(0.5)(coldMs) / p(0.5)(bareMs)],
      [`${size} tile cold / bare, p95`, p(0.95)(coldMs) / p(0.95)(bareMs)],
      [`${size} tile warm / bare, median`, p(0.5)(warmMs) / p(0.5)(bareMs)],
      [`${size} tile warm / bare, p95`, p(0.95)(warmMs) / p(0.95)(bareMs)],
    ],
  };
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
