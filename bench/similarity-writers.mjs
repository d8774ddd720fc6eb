// Writer retrieval with the built-in handwriting descriptor on real medieval charters (the iForal
// dataset's PAGE ground truth): every text line is a query, the lines of the same document on its
// other pages are what it should find. Needs the built server (`npx tsc -b contract server`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, table } from './lib/measure.mjs';

/** The four iForal pages of the shared fixtures (two charters, two scribes), there whenever the tests' fixtures are. */
const FIXTURES = fileURLToPath(new URL('../../shared/fixtures/page/iforal', import.meta.url));
/** The git directory the fetch tool leaves a copy of github.com/Arch-W/iForal-Dataset in. */
const MIRROR = '/work/.mirror/Arch-W+iForal-Dataset/repo';

/**
 * Published page-level figures for comparison, as the issue cites them: classical SIFT + VLAD on
 * the ICDAR 2017 Historical-WI test set (720 writers, 5 pages each; a page is the query, the other
 * 3,599 pages are ranked). [label, top-1, mAP].
 */
const REFERENCES = [['SIFT + VLAD, ICDAR17 Historical-WI (pages; as the issue cites it)', 0.81, 0.62]];

/** The trivial baselines' sizes: a line squashed to 16 x 6 grey values, and a 32-bin grey-level histogram. */
const BASELINE_ROWS = 6;
const BASELINE_COLUMNS = 16;
const GREY_BINS = 32;
/** How many lines (each page's every tenth) are described again, three times, for the timing. */
const TIMING_SAMPLE = 200;

/**
 * The pages of an iForal-shaped folder: one folder per document, each page `N.xml` (PAGE) with the
 * image its `imageFilename` names. Gives { doc, page, xml, image } with the image as a path.
 */
function pagesInFolder(root) {
  const pages = [];
  for (const doc of fs.readdirSync(root).sort()) {
    const dir = path.join(root, doc);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.xml')).sort(byNumber)) {
      const xml = fs.readFileSync(path.join(dir, file), 'utf8');
      pages.push({ doc, page: `${doc}/${file}`, xml, image: () => path.join(dir, imageFileName(xml)) });
    }
  }
  return pages;
}

/** The same from a git copy of the repository (its `data/` folder at HEAD), images read with `git show`. */
function pagesInMirror(gitDir) {
  const git = (args, encoding) => execFileSync('git', ['-C', gitDir, ...args], { encoding, maxBuffer: 64 << 20 });
  const files = git(['ls-tree', '-r', '--name-only', 'HEAD', 'data'], 'utf8').split('\n').filter((f) => f.endsWith('.xml'));
  return files.sort(byNumber).map((file) => {
    const [, doc, name] = file.split('/');
    const xml = git(['show', `HEAD:${file}`], 'utf8');
    return { doc, page: `${doc}/${name}`, xml, image: () => git(['show', `HEAD:data/${doc}/${imageFileName(xml)}`], 'buffer') };
  });
}

const byNumber = (a, b) => a.localeCompare(b, 'en', { numeric: true });
/** An iForal document's year, from its folder's name (foral_de_evora_1218); -1 without one. */
const yearOf = (doc) => Number(/_(\d{4})$/.exec(doc)?.[1] ?? -1);
const imageFileName = (xml) => /<Page\b[^>]*\bimageFilename="([^"]+)"/.exec(xml)?.[1] ?? '';

/** The bounding box of every TextLine's Coords polygon, in document order. */
export function textLineBoxes(xml) {
  const boxes = [];
  for (const match of xml.matchAll(/<TextLine\b[^>]*>\s*<Coords\s+points="([^"]+)"/g)) {
    const points = match[1].trim().split(/\s+/).map((p) => p.split(',').map(Number));
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    boxes.push({ x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y });
  }
  return boxes;
}

/**
 * Leave-one-page-out writer retrieval, ranking by cosine similarity (the search screens' default):
 * each item whose document has another page is a query; every item of another page is ranked; the
 * items of the query's document are the relevant ones. `dims` picks the values compared; with
 * `sameYearOut` the items of other documents of the query's year are not ranked. Gives
 * top-1 (the first ranked is relevant; a tie with an irrelevant one counts as a miss), mAP, and
 * their chance levels (a random ranking: R/N, and the expected average precision of a random
 * permutation, (R-1)/(N-1) + H_N (N-R) / (N (N-1))).
 */
export function writerRetrieval(vectors, items, { dims = null, sameYearOut = false } = {}) {
  const picked = dims ?? [...Array(vectors[0]?.length ?? 0).keys()];
  const d = picked.length;
  const n = vectors.length;
  const unit = new Float32Array(n * d);
  for (let i = 0; i < n; i += 1) {
    let norm = 0;
    for (let j = 0; j < d; j += 1) norm += vectors[i][picked[j]] ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < d; j += 1) unit[i * d + j] = vectors[i][picked[j]] * scale;
  }
  const numbered = (key) => {
    const ids = new Map();
    return Int32Array.from(items, (item) => (ids.has(item[key]) ? ids.get(item[key]) : ids.set(item[key], ids.size).get(item[key])));
  };
  const doc = numbered('doc');
  const page = numbered('page');
  const year = Int32Array.from(items, (item) => (sameYearOut ? yearOf(item.doc) : -1));
  // Not ranked for query q: its own page, and with sameYearOut other documents of its year.
  const skipped = (q, k) => page[k] === page[q] || (year[q] >= 0 && year[k] === year[q] && doc[k] !== doc[q]);
  const pagesOfDoc = new Map();
  for (const item of items) pagesOfDoc.set(item.doc, (pagesOfDoc.get(item.doc) ?? new Set()).add(item.page));

  const relevant = new Float64Array(n);
  const ahead = new Int32Array(n + 1);
  let queries = 0;
  let hits = 0;
  let apSum = 0;
  let chanceTop1 = 0;
  let chanceAp = 0;
  for (let q = 0; q < n; q += 1) {
    if (pagesOfDoc.get(items[q].doc).size < 2) continue;
    const sims = new Float64Array(n);
    for (let k = 0; k < n; k += 1) {
      let s = 0;
      for (let j = 0, a = q * d, b = k * d; j < d; j += 1, a += 1, b += 1) s += unit[a] * unit[b];
      sims[k] = s;
    }
    let r = 0;
    for (let k = 0; k < n; k += 1) if (doc[k] === doc[q] && !skipped(q, k)) relevant[r++] = sims[k];
    const rel = relevant.subarray(0, r).sort().reverse();
    // For each relevant item j (best first), how many irrelevant ones rank at or above it.
    ahead.fill(0, 0, r + 1);
    let others = 0;
    let bestOther = -Infinity;
    for (let k = 0; k < n; k += 1) {
      if (doc[k] === doc[q] || skipped(q, k)) continue;
      const s = sims[k];
      others += 1;
      if (s > bestOther) bestOther = s;
      let lo = 0;
      let hi = r;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (rel[mid] > s) lo = mid + 1;
        else hi = mid;
      }
      ahead[lo] += 1;
    }
    queries += 1;
    if (rel[0] > bestOther) hits += 1;
    let above = 0;
    let precisions = 0;
    for (let j = 0; j < r; j += 1) {
      above += ahead[j];
      precisions += (j + 1) / (j + 1 + above);
    }
    apSum += precisions / r;
    const total = r + others;
    let harmonic = 0;
    for (let t = 1; t <= total; t += 1) harmonic += 1 / t;
    chanceTop1 += r / total;
    chanceAp += (r - 1) / (total - 1) + (harmonic * (total - r)) / (total * (total - 1));
  }
  return { queries, top1: hits / queries, map: apSum / queries, chanceTop1: chanceTop1 / queries, chanceMap: chanceAp / queries };
}

/** Each page's mean of its lines' vectors (each scaled to length 1 first; lines without ink left out), for page-level retrieval. */
function pageMeans(vectors, lines) {
  const pages = new Map();
  vectors.forEach((v, i) => {
    const norm = Math.hypot(...v);
    if (norm === 0) return;
    const { doc, page } = lines[i];
    if (!pages.has(page)) pages.set(page, { doc, page, sum: new Float64Array(v.length) });
    const sum = pages.get(page).sum;
    for (let j = 0; j < v.length; j += 1) sum[j] += v[j] / norm;
  });
  return { vectors: [...pages.values()].map((p) => p.sum), items: [...pages.values()] };
}

/** The trivial baselines: the line squashed to 16 x 6 grey values, and its grey-level histogram (square-rooted). */
function baselines(line) {
  const raw = new Float64Array(BASELINE_ROWS * BASELINE_COLUMNS);
  const count = new Float64Array(raw.length);
  const grey = new Float64Array(GREY_BINS);
  const { pixels, width, height } = line;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const v = pixels[y * width + x];
      const cell = Math.floor((y * BASELINE_ROWS) / height) * BASELINE_COLUMNS + Math.floor((x * BASELINE_COLUMNS) / width);
      raw[cell] += v;
      count[cell] += 1;
      grey[v >> 3] += 1;
    }
  }
  const total = width * height;
  return {
    raw: raw.map((v, i) => (count[i] ? v / count[i] / 255 : 0)),
    grey: grey.map((v) => (total ? Math.sqrt(v / total) : 0)),
  };
}

/** Reads every line of every page through the server's line reader and describes it. */
async function describeCollection(pages, similarity) {
  const { readLineImages, describeHandwriting } = similarity;
  const lines = [];
  const sample = [];
  let readMs = 0;
  let describeMs = 0;
  let describedPixels = 0;
  // Warm-up (not counted): lets the descriptor reach optimised code.
  const first = pages[0];
  for (const line of await readLineImages(first.image(), textLineBoxes(first.xml).slice(0, 20))) describeHandwriting(line);
  for (const p of pages) {
    const boxes = textLineBoxes(p.xml);
    const image = p.image();
    const started = performance.now();
    const images = await readLineImages(image, boxes);
    readMs += performance.now() - started;
    for (const [i, line] of images.entries()) {
      const t = performance.now();
      const vector = describeHandwriting(line);
      describeMs += performance.now() - t;
      describedPixels += line.width * line.height;
      lines.push({ doc: p.doc, page: p.page, vector, ...baselines(line) });
      if (i % 10 === 0 && sample.length < TIMING_SAMPLE) sample.push(line);
    }
  }
  // The pass above shares the machine with whatever else runs; the best of a few rounds over a
  // sample of lines is closer to what the descriptor itself costs.
  let bestRound = Infinity;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    for (const line of sample) describeHandwriting(line);
    bestRound = Math.min(bestRound, performance.now() - started);
  }
  const samplePixels = sample.reduce((n, l) => n + l.width * l.height, 0);
  return { lines, readMs, describeMs, describedPixels, sampled: { lines: sample.length, ms: bestRound, pixels: samplePixels } };
}

/** The whole benchmark on one collection of pages. */
async function benchCollection(name, where, pages, similarity) {
  const { DESCRIPTOR_BLOCKS, DESCRIPTOR_SIZE } = similarity;
  const { lines, readMs, describeMs, describedPixels, sampled } = await describeCollection(pages, similarity);
  const docs = new Set(lines.map((l) => l.doc));
  const withPages = new Set([...docs].filter((d) => new Set(lines.filter((l) => l.doc === d).map((l) => l.page)).size > 1));
  const blank = lines.filter((l) => l.vector.every((v) => v === 0)).length;
  const runs = [
    ['built-in descriptor, all values', (l) => l.vector, null],
    ['built-in descriptor, features 1..20', (l) => l.vector, [...Array(20).keys()]],
    [`baseline: raw pixels (the line squashed to ${BASELINE_COLUMNS} x ${BASELINE_ROWS})`, (l) => l.raw, null],
    [`baseline: grey-level histogram (${GREY_BINS} bins)`, (l) => l.grey, null],
  ];
  // Each run at line level and with each page's mean vector; [label, lines result, pages result].
  const evaluate = (sameYearOut) =>
    runs.map(([label, get, dims]) => {
      const means = pageMeans(lines.map(get), lines);
      return [label, writerRetrieval(lines.map(get), lines, { dims, sameYearOut }), writerRetrieval(means.vectors, means.items, { dims, sameYearOut })];
    });
  const results = evaluate(false);
  // Other documents of the same year may be in the same scribe's hand (iForal: 21 charters of 1217, 16 of 1222).
  const years = [...docs].map(yearOf).filter((y) => y >= 0);
  const sharedYears = new Set(years).size < years.length;
  const sameYearOut = sharedYears ? evaluate(true) : [];
  const blockResults = [];
  let offset = 0;
  for (const block of DESCRIPTOR_BLOCKS) {
    const dims = [...Array(block.size).keys()].map((i) => i + offset);
    blockResults.push([`  ${block.name} (features ${offset + 1}..${offset + block.size})`, writerRetrieval(lines.map((l) => l.vector), lines, { dims })]);
    offset += block.size;
  }

  const cells = (r) => [fmt(r.top1, 3), fmt(r.map, 3)];
  const rows = (list, suffix) => [
    ...list.map(([label, line, page]) => [`${label}${suffix}`, ...cells(line), ...cells(page)]),
    [`chance (a random ranking)${suffix}`, fmt(list[0][1].chanceTop1, 3), fmt(list[0][1].chanceMap, 3), fmt(list[0][2].chanceTop1, 3), fmt(list[0][2].chanceMap, 3)],
  ];
  const [[, all, pageAll], [, prefix], [, raw], [, grey]] = results;
  const text = [
    table([
      ['', 'lines top-1', 'lines mAP', 'pages top-1', 'pages mAP'],
      ...rows(results, ''),
      ...(sharedYears ? [['other documents of the query\'s year left out:', '', '', '', ''], ...rows(sameYearOut, ', same year out')] : []),
      ...REFERENCES.map(([label, top1, map]) => [label, '', '', fmt(top1, 3), fmt(map, 3)]),
    ]),
    '',
    table([['each block of the descriptor alone (lines)', 'top-1', 'mAP'], ...blockResults.map(([label, r]) => [label, ...cells(r)])]),
    '',
    `Time per line: read (decode once per page, crop, scale to 64 px) ${fmt(readMs / lines.length, 2)} ms, describe ${fmt(describeMs / lines.length, 2)} ms ` +
      `(${fmt((describeMs / describedPixels) * 64_000, 2)} ms per 64 x 1000 px); best of 3 rounds over ${sampled.lines} lines: ` +
      `${fmt(sampled.ms / sampled.lines, 2)} ms a line, ${fmt((sampled.ms / sampled.pixels) * 64_000, 2)} ms per 64 x 1000 px.`,
    standing({ all, pageAll, raw, grey, sameYear: sameYearOut[0] }),
  ].join('\n');
  return {
    title:
      `Writer retrieval, ${name}: ${lines.length} lines of ${new Set(lines.map((l) => l.page)).size} pages of ${docs.size} documents ` +
      `(writer = document); ${all.queries} line queries from the documents with two or more pages (${withPages.size}), leave-one-page-out, ` +
      `cosine; ${DESCRIPTOR_SIZE} values a line; ${blank} lines without ink; data from ${where}`,
    text,
    ratios: [
      [`writers ${name}: descriptor mAP / raw-pixel baseline mAP, lines (higher is better)`, all.map / raw.map],
      [`writers ${name}: descriptor mAP / grey-histogram baseline mAP, lines (higher is better)`, all.map / grey.map],
      [`writers ${name}: features 1..20 mAP / all values mAP, lines (higher is better)`, prefix.map / all.map],
      [`writers ${name}: describe / read, time per line`, describeMs / readMs],
    ],
  };
}

/** A plain sentence of where the descriptor stands. */
function standing({ all, pageAll, raw, grey, sameYear }) {
  const [, refTop1, refMap] = REFERENCES[0];
  const pct = (x) => `${fmt(x * 100, 0)}%`;
  return (
    `Where it stands: from one line it ranks a line of the same document first ${pct(all.top1)} of the time ` +
    `(chance ${pct(all.chanceTop1)}, raw pixels ${pct(raw.top1)}, grey histogram ${pct(grey.top1)}), mAP ${fmt(all.map, 3)}` +
    (sameYear ? ` (${pct(sameYear[1].top1)} and ${fmt(sameYear[1].map, 3)} with the same year's other documents left out)` : '') +
    `; a page's mean vector ranks a page of the same document first ${pct(pageAll.top1)} of the time, mAP ${fmt(pageAll.map, 3)}` +
    (sameYear ? ` (${pct(sameYear[2].top1)}, ${fmt(sameYear[2].map, 3)})` : '') +
    `, against ${pct(refTop1)} and ${fmt(refMap, 2)} published for SIFT + VLAD on Historical-WI pages (other data: 720 writers, 5 pages each).`
  );
}

/** Options from the environment: BENCH_IFORAL_DIR, a folder holding the iForal documents' folders (the repository's data/). */
export function similarityBenchOptions(env = process.env) {
  return { iforalDir: env.BENCH_IFORAL_DIR || null };
}

/** The fixtures' four pages, and the whole iForal dataset when at hand (else it says where to get it). */
export async function benchSimilarityWriters({ iforalDir }) {
  const dist = (file) => new URL(`../server/dist/modules/similarity/${file}`, import.meta.url);
  if (!fs.existsSync(dist('descriptor.js'))) {
    console.log('Writer retrieval: skipped, the server is not built (npx tsc -b contract server).\n');
    return [];
  }
  const similarity = { ...(await import(dist('descriptor.js'))), ...(await import(dist('line-image.js'))) };
  const results = [];
  if (fs.existsSync(FIXTURES)) results.push(await benchCollection('iForal fixtures', FIXTURES, pagesInFolder(FIXTURES), similarity));
  else console.log(`Writer retrieval on the fixtures: skipped, ${FIXTURES} is absent.\n`);

  const folder = iforalDir && fs.existsSync(path.join(iforalDir, 'data')) ? path.join(iforalDir, 'data') : iforalDir;
  if (folder) results.push(await benchCollection('iForal dataset', folder, pagesInFolder(folder), similarity));
  else if (fs.existsSync(MIRROR)) results.push(await benchCollection('iForal dataset', `${MIRROR} (git HEAD:data)`, pagesInMirror(MIRROR), similarity));
  else {
    console.log(
      'Writer retrieval on the whole iForal dataset: skipped, not found. Get https://github.com/Arch-W/iForal-Dataset ' +
        '(CC-BY 4.0) and point BENCH_IFORAL_DIR at its checkout.\n',
    );
  }
  return results;
}

// `node bench/similarity-writers.mjs` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  for (const r of await benchSimilarityWriters(similarityBenchOptions())) {
    console.log(`${r.title}\n${r.text}\n\nRatios:\n${table(r.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)]))}\n`);
  }
  console.log(`Total ${fmt((Date.now() - started) / 1000)} s`);
}
