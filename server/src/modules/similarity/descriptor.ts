/**
 * The built-in handwriting descriptor: classical writer-identification features computed from the
 * ink of one text line, with no model weights: the contour-direction and contour-hinge
 * distributions of Bulacu & Schomaker (IEEE TPAMI 29(4), 2007), reduced to fit 100 values, and
 * run lengths of ink down columns and of the gaps between strokes along rows. Pure TypeScript with
 * no dependencies, deterministic, about a millisecond or two for a 64 x 1000 px line.
 *
 * The ink is Otsu's dark class of the line. Every block is a histogram, normalised to sum 1 and
 * square-rooted (the Hellinger map, so Euclidean and cosine distances compare distributions
 * sensibly); the whole vector is then scaled to length 1. A line without ink (blank, too faint,
 * or too small to hold a stroke) gives the zero vector, whose cosine to anything is undefined.
 */

/** A line image: 8-bit grey pixels, row by row, ink dark (0/255 when already binarised). */
export interface LineImage {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** Changes whenever the values a line gives change: vectors of two versions do not compare. */
export const DESCRIPTOR_VERSION = 1;

/**
 * The blocks in vector order. The search screens compare features 1..20 by default, so these hold
 * the block that tells writers apart best in 20 values: the contour directions (the hinge is
 * stronger but needs its 64). Measured on the iForal charters by bench/similarity-writers.mjs,
 * see bench/README.md.
 */
export const DESCRIPTOR_BLOCKS = [
  { name: 'contour-direction', size: 20, about: 'directions of contour fragments over 360 degrees, the ink on their left (slant, roundness)' },
  { name: 'contour-hinge', size: 64, about: 'at each contour point, the direction of the fragment leaving it (8) by the angle to the fragment arriving (8)' },
  { name: 'ink-runs-vertical', size: 8, about: 'lengths of vertical runs of ink (pen width of horizontal strokes, tall strokes)' },
  { name: 'gap-runs-horizontal', size: 8, about: 'lengths of the gaps between two strokes along a row (letter and word spacing)' },
] as const;

export type DescriptorBlockName = (typeof DESCRIPTOR_BLOCKS)[number]['name'];

/** The number of values of every vector (PostgreSQL's cube takes at most 100). */
export const DESCRIPTOR_SIZE = DESCRIPTOR_BLOCKS.reduce((n, b) => n + b.size, 0);

const OFFSET = Object.fromEntries(
  DESCRIPTOR_BLOCKS.map((b, i) => [b.name, DESCRIPTOR_BLOCKS.slice(0, i).reduce((n, a) => n + a.size, 0)]),
) as Record<DescriptorBlockName, number>;
const DIRECTION_BINS = 20;
const HINGE_BINS = 8;
const RUN_BINS = 8;

/** The height the lengths below refer to; lines of another height are measured in proportion. */
const REFERENCE_HEIGHT = 64;
/** Contour fragments span this many pixel edges at the reference height: short for directions, longer for hinges. */
const DIRECTION_STEPS = 4;
const HINGE_STEPS = 8;
/** Vertical ink runs are binned up to a quarter of the reference height, gaps along rows up to all of it. */
const LONGEST_INK_RUN = 16;
const LONGEST_GAP = 64;
/** Otsu's two classes closer than this (mean grey levels) are paper grain, not ink: the line is blank. */
export const MIN_INK_CONTRAST = 20;
/** A line narrower or lower than this many pixels cannot hold a stroke worth describing. */
const MIN_SIDE = 8;
/** A line needs this many ink pixels (at the reference height) to be described. */
const MIN_INK_PIXELS = 24;

/**
 * Otsu's threshold: the grey level t that best splits the pixels into dark (<= t) and light (> t)
 * by between-class variance. Where several levels split equally well (an empty gap between two
 * modes) it is the middle of them. Pixels of a single level cannot be split: the level is all
 * dark below 128 (t is that level), else all light (t is one below it).
 */
export function otsuThreshold(pixels: Uint8Array): number {
  return otsuOfHistogram(greyHistogram(pixels, pixels.length));
}

function greyHistogram(pixels: Uint8Array, count: number): Float64Array {
  const hist = new Float64Array(256);
  for (let i = 0; i < count; i += 1) hist[pixels[i]!]! += 1;
  return hist;
}

function otsuOfHistogram(hist: Float64Array): number {
  let lo = 0;
  while (lo < 255 && hist[lo] === 0) lo += 1;
  let hi = 255;
  while (hi > 0 && hist[hi] === 0) hi -= 1;
  if (hi <= lo) return lo < 128 ? lo : lo - 1;
  let total = 0;
  let sum = 0;
  for (let v = lo; v <= hi; v += 1) {
    total += hist[v]!;
    sum += v * hist[v]!;
  }
  let count0 = 0;
  let sum0 = 0;
  let best = -1;
  let first = lo;
  let last = lo;
  for (let t = lo; t < hi; t += 1) {
    count0 += hist[t]!;
    sum0 += t * hist[t]!;
    const count1 = total - count0;
    const diff = sum0 / count0 - (sum - sum0) / count1;
    const between = count0 * count1 * diff * diff;
    // Relative tolerance: equal splits computed through different sums may differ in the last bits.
    if (between > best * (1 + 1e-12)) {
      best = between;
      first = t;
      last = t;
    } else if (between >= best * (1 - 1e-12)) {
      last = t;
    }
  }
  return Math.floor((first + last) / 2);
}

/**
 * The ink of a line, padded with one background pixel on every side (1 ink, 0 background), or
 * null when the line holds no ink worth describing.
 */
function inkOf(line: LineImage): { ink: Uint8Array; width: number; height: number; inkPixels: number } | null {
  const { pixels, width, height } = line;
  if (width < MIN_SIDE || height < MIN_SIDE || pixels.length < width * height) return null;
  const hist = greyHistogram(pixels, width * height);
  const threshold = otsuOfHistogram(hist);
  let dark = 0;
  let darkSum = 0;
  let lightSum = 0;
  for (let v = 0; v < 256; v += 1) {
    if (v <= threshold) {
      dark += hist[v]!;
      darkSum += v * hist[v]!;
    } else lightSum += v * hist[v]!;
  }
  const light = width * height - dark;
  if (dark === 0 || light === 0) return null;
  if (lightSum / light - darkSum / dark < MIN_INK_CONTRAST) return null;
  const unit = height / REFERENCE_HEIGHT;
  if (dark < MIN_INK_PIXELS * unit * unit) return null;
  const pw = width + 2;
  const ink = new Uint8Array(pw * (height + 2));
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    const prow = (y + 1) * pw + 1;
    for (let x = 0; x < width; x += 1) ink[prow + x] = pixels[row + x]! <= threshold ? 1 : 0;
  }
  return { ink, width: pw, height: height + 2, inkPixels: dark };
}

/** The descriptor of one line: `DESCRIPTOR_SIZE` values, length 1, or all zero for a line without ink. */
export function describeHandwriting(line: LineImage): Float32Array {
  const vector = new Float32Array(DESCRIPTOR_SIZE);
  const found = inkOf(line);
  if (!found) return vector;
  const counts = new Float64Array(DESCRIPTOR_SIZE);
  const unit = line.height / REFERENCE_HEIGHT;
  contourFeatures(found, unit, counts);
  runLengths(found, unit, counts);

  let norm = 0;
  for (const b of DESCRIPTOR_BLOCKS) {
    const at = OFFSET[b.name];
    let total = 0;
    for (let i = at; i < at + b.size; i += 1) total += counts[i]!;
    if (total === 0) continue;
    for (let i = at; i < at + b.size; i += 1) {
      const v = Math.sqrt(counts[i]! / total);
      vector[i] = v;
      norm += v * v;
    }
  }
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i += 1) vector[i]! *= scale;
  return vector;
}

// Crack-following contours: the boundary between ink and background runs along pixel edges, from
// one pixel corner (a vertex) to the next, with the ink on its left. Directions E, S, W, N (y down).
const DX = Int8Array.of(1, 0, -1, 0);
const DY = Int8Array.of(0, 1, 0, -1);

/**
 * The direction to leave a vertex by, given the four pixels around it (bit 0 the north-west pixel
 * is ink, 1 north-east, 2 south-west, 3 south-east) and the direction it was entered by. Where two
 * ink pixels touch only at their corners the contour turns right, joining them (8-connected ink).
 */
const NEXT_DIRECTION = (() => {
  const table = new Int8Array(64).fill(-1);
  for (let code = 0; code < 16; code += 1) {
    const [nw, ne, sw, se] = [code & 1, code & 2, code & 4, code & 8].map(Boolean) as [boolean, boolean, boolean, boolean];
    const outs = [ne && !se, se && !sw, sw && !nw, nw && !ne]; // E, S, W, N
    for (let entered = 0; entered < 4; entered += 1) {
      const right = (entered + 1) % 4;
      table[code * 4 + entered] = outs[right] ? right : outs.indexOf(true);
    }
  }
  return table;
})();

/**
 * The angle, in turns (0 <= a < 1, counter-clockwise from east as seen on the page), of every step
 * vector (dx, dy) with |dx|, |dy| <= k, indexed (dy + k) * (2k + 1) + dx + k; -1 for the null vector.
 */
const turnTables = new Map<number, Float64Array>();
function turns(k: number): Float64Array {
  let table = turnTables.get(k);
  if (!table) {
    const span = 2 * k + 1;
    table = new Float64Array(span * span);
    for (let dy = -k; dy <= k; dy += 1) {
      for (let dx = -k; dx <= k; dx += 1) {
        const a = Math.atan2(-dy, dx) / (2 * Math.PI);
        table[(dy + k) * span + dx + k] = dx === 0 && dy === 0 ? -1 : a < 0 ? a + 1 : a;
      }
    }
    turnTables.set(k, table);
  }
  return table;
}

/**
 * Traces every contour of the ink and adds, at each contour point, the direction of the fragment
 * leaving it (f1, shared between the two nearest of 20 bins) and its hinge (f2: the leaving
 * fragment's direction and the angle from it to the fragment arriving, 8 x 8 bins).
 */
function contourFeatures(found: { ink: Uint8Array; width: number; height: number; inkPixels: number }, unit: number, counts: Float64Array): void {
  const { ink, width, height } = found;
  const kd = Math.max(2, Math.round(DIRECTION_STEPS * unit));
  const kh = Math.max(2, Math.round(HINGE_STEPS * unit));
  const directionTurns = turns(kd);
  const hingeTurns = turns(kh);
  const spanD = 2 * kd + 1;
  const spanH = 2 * kh + 1;
  const atDirection = OFFSET['contour-direction'];
  const atHinge = OFFSET['contour-hinge'];
  // Every ink pixel has at most four boundary edges.
  const xs = new Int32Array(4 * found.inkPixels + 4);
  const ys = new Int32Array(xs.length);
  const vw = width + 1;
  const visited = new Uint8Array(vw * (height + 1));

  const trace = (startX: number, startY: number, startDir: number) => {
    let x = startX;
    let y = startY;
    let dir = startDir;
    let n = 0;
    do {
      visited[y * vw + x]! |= 1 << dir;
      xs[n] = x;
      ys[n] = y;
      n += 1;
      x += DX[dir]!;
      y += DY[dir]!;
      const above = (y - 1) * width + x;
      const below = y * width + x;
      const code = ink[above - 1]! | (ink[above]! << 1) | (ink[below - 1]! << 2) | (ink[below]! << 3);
      dir = NEXT_DIRECTION[code * 4 + dir]!;
    } while (!(visited[y * vw + x]! & (1 << dir)));

    if (n >= 3 * kd) {
      for (let i = 0; i < n; i += 1) {
        const a = i + kd < n ? i + kd : i + kd - n;
        const t = directionTurns[(ys[a]! - ys[i]! + kd) * spanD + xs[a]! - xs[i]! + kd]!;
        if (t < 0) continue;
        const position = t * DIRECTION_BINS;
        const low = Math.floor(position);
        const frac = position - low;
        counts[atDirection + (low % DIRECTION_BINS)]! += 1 - frac;
        counts[atDirection + ((low + 1) % DIRECTION_BINS)]! += frac;
      }
    }
    if (n >= 3 * kh) {
      for (let i = 0; i < n; i += 1) {
        const a = i + kh < n ? i + kh : i + kh - n;
        const b = i - kh >= 0 ? i - kh : i - kh + n;
        const leaving = hingeTurns[(ys[a]! - ys[i]! + kh) * spanH + xs[a]! - xs[i]! + kh]!;
        const arriving = hingeTurns[(ys[b]! - ys[i]! + kh) * spanH + xs[b]! - xs[i]! + kh]!;
        if (leaving < 0 || arriving < 0) continue;
        const opening = arriving >= leaving ? arriving - leaving : arriving - leaving + 1;
        const u = Math.min(HINGE_BINS - 1, Math.floor(leaving * HINGE_BINS));
        const v = Math.min(HINGE_BINS - 1, Math.floor(opening * HINGE_BINS));
        counts[atHinge + u * HINGE_BINS + v]! += 1;
      }
    }
  };

  // Every contour has a topmost edge: the top of an ink pixel (outer contours, heading west) or the
  // bottom of one above a hole (heading east).
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      if (!ink[i]) continue;
      if (!ink[i - width] && !(visited[y * vw + x + 1]! & (1 << 2))) trace(x + 1, y, 2);
      if (!ink[i + width] && !(visited[(y + 1) * vw + x]! & (1 << 0))) trace(x, y + 1, 0);
    }
  }
}

/**
 * A run length, in units of the line height / 64, on a log scale from 1 unit (bin 0) to `longest`
 * units (the last bin, which also takes longer runs), shared between the two nearest bins so that
 * a small change of scale moves weight smoothly.
 */
function addRun(counts: Float64Array, at: number, length: number, unit: number, longest: number): void {
  const units = Math.max(1, length / unit);
  const position = Math.min(RUN_BINS - 1, (Math.log(units) / Math.log(longest)) * (RUN_BINS - 1));
  const low = Math.floor(position);
  const frac = position - low;
  counts[at + low]! += 1 - frac;
  if (frac > 0) counts[at + low + 1]! += frac;
}

/** Vertical runs of ink, and the gaps between two strokes along each row (not the margins before the first or after the last). */
function runLengths(found: { ink: Uint8Array; width: number; height: number }, unit: number, counts: Float64Array): void {
  const { ink, width, height } = found;
  const atInk = OFFSET['ink-runs-vertical'];
  const atGap = OFFSET['gap-runs-horizontal'];
  for (let y = 1; y < height - 1; y += 1) {
    let gap = -1; // no stroke yet in this row
    for (let i = y * width, end = i + width; i < end; i += 1) {
      if (ink[i]) {
        if (gap > 0) addRun(counts, atGap, gap, unit, LONGEST_GAP);
        gap = 0;
      } else if (gap >= 0) gap += 1;
    }
  }
  // Down every column at once, row by row; the padding rows end every run.
  const run = new Int32Array(width);
  for (let y = 0; y < height; y += 1) {
    for (let x = 1, i = y * width + 1; x < width - 1; x += 1, i += 1) {
      if (ink[i]) run[x]! += 1;
      else if (run[x]! > 0) {
        addRun(counts, atInk, run[x]!, unit, LONGEST_INK_RUN);
        run[x] = 0;
      }
    }
  }
}
