import sharp from 'sharp';

/** Milliseconds taken by `work` (high-resolution clock). */
export async function timed(work) {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** The q-quantile (0..1) of a list of numbers, nearest-rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * `count` distinct scan-like JPEGs: a paper-coloured page with mild grain, each a slightly
 * different shade so the content-addressed file store keeps every one (identical bytes would be
 * stored once).
 */
export async function scanLikeJpegs(count, width, height) {
  // Gaussian noise is slow to make at full size: make one patch of grain and repeat it.
  const patch = await sharp({
    create: { width: 509, height: 509, channels: 3, background: '#d8c8a8', noise: { type: 'gaussian', mean: 128, sigma: 14 } },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const grain = await sharp(patch)
    .extend({ right: width - 509, bottom: height - 509, extendWith: 'repeat' })
    .raw()
    .toBuffer();
  const pages = [];
  for (let i = 0; i < count; i += 1) {
    pages.push(
      await sharp(grain, { raw: { width, height, channels: 3 } })
        .linear(1 + Math.floor(i / 41) * 0.01, (i % 41) - 20)
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
  return pages;
}

/** Aligned text: the first column left, the others right. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '))
    .join('\n');
}

export const fmt = (n, digits = 1) => n.toFixed(digits);
