import sharp from 'sharp';
import { fmt, scanLikeJpegs, sum, table, timed } from './lib/measure.mjs';

/**
 * Ingest throughput: N distinct JPEG pages uploaded one after another through the real upload
 * route, against the bare sharp work per page (header read + one full decode) on the same bytes.
 * The two are interleaved page by page so drift in machine load hits both alike.
 */
export async function benchIngest(bench, { pages, width, height }) {
  const jpegs = await scanLikeJpegs(pages + 1, width, height);
  const bare = (bytes) => sharp(bytes).metadata().then(() => sharp(bytes).raw().toBuffer());
  // One warm-up of each (not counted): first-call costs of sharp, the route and the database.
  await bare(jpegs[pages]);
  await bench.uploadJpeg('warm-up.jpg', jpegs[pages]);

  const bareMs = [];
  const ingestMs = [];
  for (let i = 0; i < pages; i += 1) {
    bareMs.push((await timed(() => bare(jpegs[i]))).ms);
    ingestMs.push((await timed(() => bench.uploadJpeg(`page-${String(i + 1).padStart(3, '0')}.jpg`, jpegs[i]))).ms);
  }
  const perPage = (ms) => sum(ms) / pages;
  const avgMb = sum(jpegs.slice(0, pages).map((j) => j.length)) / pages / 1e6;
  return {
    title: `Ingest: ${pages} JPEG pages of ${width} x ${height} (${fmt(avgMb, 2)} MB each), one request at a time`,
    text: table([
      ['', 'ms/page', 'pages/s'],
      ['upload (POST postfile)', fmt(perPage(ingestMs)), fmt(1000 / perPage(ingestMs), 2)],
      ['bare sharp (metadata + full decode)', fmt(perPage(bareMs)), fmt(1000 / perPage(bareMs), 2)],
    ]),
    ratios: [['ingest / bare sharp, time per page', perPage(ingestMs) / perPage(bareMs)]],
  };
}
