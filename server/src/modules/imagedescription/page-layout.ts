import { type Blob, type InkRun, inkBlobs } from './components.js';
import { type Box, type GreyPage, inkWindow, paperBox, sauvolaInk } from './ink.js';

/**
 * The layout of a page from its pixels alone: where the paper is, whether it holds any text, the
 * skew of its lines, its columns and the text lines in each. Classical projection profiles over a
 * binarised, downscaled page (Sauvola's threshold, then connected components): no model, a few
 * tens of milliseconds for a page of two megapixels. Pure TypeScript, so it runs in a worker thread.
 */
export interface PageLayout {
  width: number;
  height: number;
  /** The paper, without the dark surround of a scanned book page. */
  paper: Box;
  /** No text-like ink on the paper. */
  blank: boolean;
  /** The share of the paper covered by the ink of text-like blobs. */
  inkShare: number;
  /** The typical height of a letter (median blob height), in pixels; 0 on a blank page. */
  letterHeight: number;
  /** Degrees by which the lines descend to the right (positive: the page is turned clockwise); null without lines. */
  skewDegrees: number | null;
  /** Columns left to right, each with its lines top to bottom. */
  columns: LayoutColumn[];
}

export interface LayoutColumn {
  left: number;
  right: number;
  /** The distance from one line to the next, in pixels. */
  pitch: number;
  lines: LayoutLine[];
}

/** One text line: the box around its blobs, in the page's pixels (not deskewed). */
export type LayoutLine = Box;

/** Blobs of fewer pixels are dust or the grain of the paper. */
const MIN_BLOB_PIXELS = 4;
/** Fewer text-like blobs than this on the paper, or less ink than this share of it: a blank page. */
const MIN_TEXT_BLOBS = 12;
const MIN_INK_SHARE = 0.0005;
/** The skew is searched within this many degrees either way, first coarsely, then finely. */
const MAX_SKEW = 6;
const COARSE_STEP = 0.25;
const FINE_STEP = 0.05;
/** The skew is measured on at most this many runs of ink (every n-th): plenty, and quick. */
const SKEW_RUNS = 40_000;
/** A gutter is covered by fewer blobs than this share of the typical cover of the text. */
const GUTTER_COVER = 0.55;

export function analysePageLayout(page: GreyPage): PageLayout {
  const window = inkWindow(page);
  const paper = paperBox(page, window);
  const ink = sauvolaInk(page, paper, window);
  const found = inkBlobs(ink, page.width, page.height);
  const blobs = found.blobs.filter((b) => b.pixels >= MIN_BLOB_PIXELS);
  const letterHeight = median(blobs.filter((b) => b.bottom - b.top >= 3).map((b) => b.bottom - b.top));
  const textLike = new Set(blobs.filter((b) => isTextLike(b, letterHeight, paper)));
  const text = [...textLike];
  const paperArea = (paper.right - paper.left) * (paper.bottom - paper.top);
  const inkShare = text.reduce((n, b) => n + b.pixels, 0) / paperArea;
  const base = { width: page.width, height: page.height, paper, inkShare };
  if (text.length < MIN_TEXT_BLOBS || inkShare < MIN_INK_SHARE) {
    return { ...base, blank: true, letterHeight: 0, skewDegrees: null, columns: [] };
  }
  const textRuns = found.runs.filter((r) => textLike.has(found.blobs[r.blob]!));
  const skew = findSkew(textRuns, letterHeight);
  const slope = Math.tan((skew * Math.PI) / 180);
  const placed = text.map((b) => place(b, slope));
  // Lines may be written aslant between straight gutters, or a skewed scan turn both alike: the
  // columns are looked for across the page as it is and as turned, and the clearer split is kept.
  const uprightX = (p: Placed) => (p.blob.left + p.blob.right) / 2;
  const turnedX = (p: Placed) => p.x;
  const upright = findColumns(placed, uprightX, letterHeight, paper);
  const turned = findColumns(placed, turnedX, letterHeight, paper);
  const [spans, across] = upright.length > turned.length ? [upright, uprightX] : [turned, turnedX];
  // Each text blob goes to the column its centre lies in, and its runs of ink with it.
  const columnOf = new Map<Blob, number>();
  const blobsIn = spans.map((): Placed[] => []);
  for (const p of placed) {
    const i = spans.findIndex((c) => across(p) >= c.left && across(p) < c.right);
    if (i < 0) continue;
    columnOf.set(p.blob, i);
    blobsIn[i]!.push(p);
  }
  const runsIn = spans.map((): InkRun[] => []);
  for (const run of textRuns) {
    const i = columnOf.get(found.blobs[run.blob]!);
    if (i !== undefined) runsIn[i]!.push(run);
  }
  const columns = spans.map((c, i) => ({ left: c.left, right: c.right, ...findLines(blobsIn[i]!, runsIn[i]!, slope, letterHeight) }));
  const hasLines = columns.some((c) => c.lines.length > 0);
  return { ...base, blank: false, letterHeight, skewDegrees: hasLines ? skew : null, columns: columns.filter((c) => c.lines.length > 0) };
}

/**
 * Letters, parts of letters and joined-up words: not the long rules, frames and page edges, and
 * not blobs as tall as a block of text (an illustration, the shadow of the gutter).
 */
function isTextLike(b: Blob, letterHeight: number, paper: Box): boolean {
  const w = b.right - b.left;
  const h = b.bottom - b.top;
  if (h > 6 * letterHeight || h > (paper.bottom - paper.top) / 4) return false;
  if (w > 30 * letterHeight || w > (paper.right - paper.left) / 2) return false;
  // A thin horizontal or vertical stroke far longer than a letter: a rule or a frame.
  if (w > 8 * letterHeight && h < 0.5 * letterHeight) return false;
  if (h > 3 * letterHeight && w < 0.15 * letterHeight) return false;
  return true;
}

/** A blob with its centre turned by the skew: `y` along the lines' normal, `x` along them. */
interface Placed {
  blob: Blob;
  x: number;
  y: number;
  /** The blob's extent along the normal, turned like its centre. */
  top: number;
  bottom: number;
  weight: number;
}

function place(blob: Blob, slope: number): Placed {
  const cx = (blob.left + blob.right) / 2;
  const cy = (blob.top + blob.bottom) / 2;
  const y = cy - cx * slope;
  return {
    blob,
    x: cx + cy * slope,
    y,
    top: y - (cy - blob.top),
    bottom: y + (blob.bottom - cy),
    weight: blob.right - blob.left,
  };
}

/**
 * The angle whose horizontal projection of the text's ink (its runs, by length, at most
 * `SKEW_RUNS` of them) is most sharply peaked, by the sum of squared row totals (Postl's
 * criterion): text lines fill few rows only when the projection runs along them.
 */
function findSkew(runs: InkRun[], letterHeight: number): number {
  const step = Math.max(1, Math.ceil(runs.length / SKEW_RUNS));
  const points: number[] = [];
  for (let i = 0; i < runs.length; i += step) {
    const r = runs[i]!;
    points.push((r.start + r.end) / 2, r.y, r.end - r.start);
  }
  const bin = Math.max(1, letterHeight / 8);
  const score = (degrees: number) => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    const rows = new Map<number, number>();
    for (let i = 0; i < points.length; i += 3) {
      const key = Math.round((points[i + 1]! - points[i]! * slope) / bin);
      rows.set(key, (rows.get(key) ?? 0) + points[i + 2]!);
    }
    let sum = 0;
    for (const v of rows.values()) sum += v * v;
    return sum;
  };
  const best = (from: number, to: number, step: number) => {
    let angle = 0;
    let top = -1;
    for (let a = from; a <= to + 1e-9; a += step) {
      const s = score(a);
      // Ties go to the angle nearest 0: a page without clear lines is not called skewed.
      if (s > top || (s === top && Math.abs(a) < Math.abs(angle))) {
        top = s;
        angle = a;
      }
    }
    return angle;
  };
  const coarse = best(-MAX_SKEW, MAX_SKEW, COARSE_STEP);
  // `|| 0`: no "-0" degrees.
  return Math.round(best(coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP) * 100) / 100 || 0;
}

/**
 * Columns: runs of the page's width covered by text, split where a gutter (a strip at least two
 * letters wide that few blobs cover) runs down the page. Runs narrower than eight letters are
 * marginal notes or stray marks, not columns.
 */
function findColumns(placed: Placed[], across: (p: Placed) => number, letterHeight: number, paper: Box): { left: number; right: number }[] {
  const width = paper.right;
  const cover = new Float64Array(width + 1);
  for (const p of placed) {
    const half = (p.blob.right - p.blob.left) / 2;
    const from = Math.max(0, Math.floor(across(p) - half));
    const to = Math.min(width, Math.ceil(across(p) + half));
    for (let x = from; x < to; x += 1) cover[x]! += 1;
  }
  const smooth = boxSmooth(cover, Math.max(1, Math.round(letterHeight)));
  const typical = median([...smooth].filter((v) => v > 0));
  // Handwritten columns are not cut straight: descenders, long strokes and notes cross the gutter.
  const gap = GUTTER_COVER * typical;
  const runs: { left: number; right: number }[] = [];
  let start = -1;
  for (let x = 0; x <= width; x += 1) {
    const covered = x < width && smooth[x]! > gap;
    if (covered && start < 0) start = x;
    if (!covered && start >= 0) {
      runs.push({ left: start, right: x });
      start = -1;
    }
  }
  // A gap narrower than half a letter is noise in the cover, not a gutter.
  const merged: { left: number; right: number }[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && run.left - last.right < letterHeight / 2) last.right = run.right;
    else merged.push({ ...run });
  }
  const minWidth = Math.max(8 * letterHeight, 0.1 * (paper.right - paper.left));
  const columns = merged.filter((r) => r.right - r.left >= minWidth);
  return columns.length > 0 ? columns : merged.slice(0, 1);
}

/**
 * The text lines of a column: peaks of the horizontal projection of its ink along the skew
 * (smoothed), at least half a line pitch apart and standing out from the valleys beside them. The
 * pitch is the first peak of the projection's autocorrelation.
 */
function findLines(placed: Placed[], runs: InkRun[], slope: number, letterHeight: number): { pitch: number; lines: LayoutLine[] } {
  if (placed.length === 0) return { pitch: 0, lines: [] };
  const top = Math.floor(Math.min(...placed.map((p) => p.top)));
  const bottom = Math.ceil(Math.max(...placed.map((p) => p.bottom)));
  const size = bottom - top + 1;
  const profile = new Float64Array(size);
  for (const run of runs) {
    const y = Math.round(run.y - ((run.start + run.end) / 2) * slope) - top;
    if (y >= 0 && y < size) profile[y]! += run.end - run.start;
  }
  const pitch = linePitch(profile, letterHeight);
  const smooth = gaussianSmooth(profile, Math.max(1, pitch / 6));
  const peaks = findPeaks(smooth, pitch);
  if (peaks.length === 0) return { pitch, lines: [] };
  const heights = peaks.map((y) => smooth[y]!);
  const strong = quantile(heights, 0.75);
  const kept = peaks.filter((y) => smooth[y]! >= 0.08 * strong);
  // Each blob belongs to the line whose peak is nearest its centre.
  const boxes = kept.map(() => ({ left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity, weight: 0 }));
  for (const p of placed) {
    const y = p.y - top;
    let nearest = 0;
    for (let i = 1; i < kept.length; i += 1) if (Math.abs(kept[i]! - y) < Math.abs(kept[nearest]! - y)) nearest = i;
    if (Math.abs(kept[nearest]! - y) > pitch) continue;
    const box = boxes[nearest]!;
    box.left = Math.min(box.left, p.blob.left);
    box.top = Math.min(box.top, p.blob.top);
    box.right = Math.max(box.right, p.blob.right);
    box.bottom = Math.max(box.bottom, p.blob.bottom);
    box.weight += p.weight;
  }
  return { pitch, lines: boxes.filter((b) => b.weight > 0).map(({ left, top: t, right, bottom: b }) => ({ left, top: t, right, bottom: b })) };
}

/** The distance between lines: the lag, from one to eight letter heights, where the profile best matches itself. */
function linePitch(profile: Float64Array, letterHeight: number): number {
  const n = profile.length;
  const mean = profile.reduce((a, b) => a + b, 0) / n;
  const centred = profile.map((v) => v - mean);
  const from = Math.max(2, Math.round(letterHeight));
  const to = Math.min(n - 1, Math.round(8 * letterHeight));
  const scores: number[] = [];
  for (let lag = from; lag <= to; lag += 1) {
    let s = 0;
    for (let i = 0; i + lag < n; i += 1) s += centred[i]! * centred[i + lag]!;
    scores.push(s / (n - lag));
  }
  if (scores.length === 0) return Math.round(2 * letterHeight);
  // The first peak at least half as high as the highest: the highest may be a multiple of the
  // pitch (a bibliography of two-line entries repeats every other line).
  const top = Math.max(...scores);
  for (let i = 1; i < scores.length - 1; i += 1) {
    if (scores[i]! >= 0.5 * top && scores[i]! >= scores[i - 1]! && scores[i]! >= scores[i + 1]!) return from + i;
  }
  return from + scores.indexOf(top);
}

/** Local maxima at least `pitch / 2` apart, each rising above the deeper valley beside it by a quarter of its height. */
function findPeaks(values: Float64Array, pitch: number): number[] {
  const candidates: number[] = [];
  for (let i = 1; i < values.length - 1; i += 1) {
    if (values[i]! > 0 && values[i]! >= values[i - 1]! && values[i]! > values[i + 1]!) candidates.push(i);
  }
  // The highest first, so a shoulder beside a peak gives way to it.
  const byHeight = [...candidates].sort((a, b) => values[b]! - values[a]!);
  const taken: number[] = [];
  for (const c of byHeight) {
    if (taken.some((t) => Math.abs(t - c) < pitch / 2)) continue;
    taken.push(c);
  }
  taken.sort((a, b) => a - b);
  return taken.filter((peak, i) => {
    const before = i > 0 ? minBetween(values, taken[i - 1]!, peak) : 0;
    const after = i < taken.length - 1 ? minBetween(values, peak, taken[i + 1]!) : 0;
    return values[peak]! - Math.max(before, after) >= 0.25 * values[peak]!;
  });
}

function minBetween(values: Float64Array, from: number, to: number): number {
  let min = Infinity;
  for (let i = from; i <= to; i += 1) min = Math.min(min, values[i]!);
  return min;
}

function boxSmooth(values: Float64Array, radius: number): Float64Array {
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length + radius; i += 1) {
    if (i < values.length) sum += values[i]!;
    if (i - 2 * radius - 1 >= 0) sum -= values[i - 2 * radius - 1]!;
    const at = i - radius;
    if (at >= 0 && at < values.length) out[at] = sum / (2 * radius + 1);
  }
  return out;
}

function gaussianSmooth(values: Float64Array, sigma: number): Float64Array {
  const radius = Math.ceil(3 * sigma);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((a, b) => a + b, 0);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    let s = 0;
    for (let k = -radius; k <= radius; k += 1) {
      const j = i + k;
      if (j >= 0 && j < values.length) s += values[j]! * kernel[k + radius]!;
    }
    out[i] = s / total;
  }
  return out;
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
