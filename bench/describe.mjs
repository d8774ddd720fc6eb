import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { multipartBody, startBenchApp } from './lib/app.mjs';
import { fmt, quantile, sum, table, timed } from './lib/measure.mjs';

/** The shared fixtures' pages: German Fraktur and English prints, a two-page bibliography, medieval charters. */
const FIXTURES = fileURLToPath(new URL('../../shared/fixtures/', import.meta.url));
const PAGES = [
  'page/kant1784/data/OCR-D-IMG/INPUT_0017.tif',
  'page/kant1784/data/OCR-D-IMG/INPUT_0020.tif',
  'hocr/alice_1.png',
  'hocr/litver.png',
  'page/iforal/foral_de_evora_1218/1.jpg',
  'page/iforal/foral_de_contrasta_1217/1.jpg',
];

/**
 * The built-in image description (`POST pim/describeimage`, no vision model): each fixture page
 * described `rounds` times through the real route, one request at a time, against a bare sharp
 * decode of the same bytes (`sharp(bytes).raw().toBuffer()`), the two alternating page by page so
 * a change in machine load hits both alike. The ratio is of the medians per page, summed.
 */
export async function benchDescribe({ rounds }) {
  const pages = PAGES.map((p) => path.join(FIXTURES, p)).filter((p) => fs.existsSync(p));
  if (pages.length === 0) return { title: 'Image description: skipped', text: `The fixture pages are not at ${FIXTURES}.`, ratios: [] };
  // Labelled with their folder where two pages share a name (1.jpg of two charters).
  const files = pages.map((p) => ({ name: path.basename(p), label: path.basename(p) === '1.jpg' ? path.relative(path.dirname(path.dirname(p)), p) : path.basename(p), bytes: fs.readFileSync(p) }));
  const bench = await startBenchApp({ env: { PIM_WORKER: 'false' } });
  try {
    const describe = async ({ name, bytes }) => {
      const { payload, headers } = multipartBody(name, bytes);
      const res = await bench.app.inject({ method: 'POST', url: '/api/pim/describeimage', headers: { ...bench.auth, ...headers }, payload });
      if (res.statusCode !== 200) throw new Error(`describing ${name} failed: ${res.statusCode} ${res.body}`);
      return res.json()[name];
    };
    const bare = ({ bytes }) => sharp(bytes).raw().toBuffer();
    // One warm-up of each (not counted): the worker thread, Tesseract's first start, sharp.
    await bare(files[0]);
    await describe(files[0]);
    const times = files.map(() => ({ described: [], bare: [] }));
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, file] of files.entries()) {
        times[i].bare.push((await timed(() => bare(file))).ms);
        times[i].described.push((await timed(() => describe(file))).ms);
      }
    }
    const median = (ms) => quantile(ms, 0.5);
    const described = times.map((t) => median(t.described));
    const bareMs = times.map((t) => median(t.bare));
    const rows = files.map((f, i) => [f.label, fmt(described[i]), fmt(bareMs[i]), fmt(described[i] / bareMs[i], 1)]);
    const perPage = sum(described) / files.length;
    return {
      title: `Image description: ${files.length} fixture pages, ${rounds} rounds, one request at a time (median per page; the target is under 1,000 ms a page)`,
      text: table([['', 'described ms', 'bare decode ms', 'ratio'], ...rows, ['mean per page', fmt(perPage), fmt(sum(bareMs) / files.length), '']]),
      ratios: [['image description / bare sharp decode, time per page', sum(described) / sum(bareMs)]],
    };
  } finally {
    await bench.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  sharp.cache(false);
  const rounds = Number(process.env.BENCH_DESCRIBE_ROUNDS ?? 3);
  const result = await benchDescribe({ rounds: Number.isInteger(rounds) && rounds >= 1 ? rounds : 3 });
  console.log(`${result.title}\n${result.text}\n`);
  console.log('Ratios (lower is better; 1.00 = as fast as a bare sharp decode of the same file):');
  console.log(table(result.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)])));
}
