/** A page in 8-bit grey, row by row. */
export interface GreyPage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A rectangle in page pixels: `right` and `bottom` are exclusive. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Sauvola's sensitivity: how far below the local mean (relative to the local contrast) ink lies. */
const SAUVOLA_K = 0.25;
/** Sauvola's dynamic range of the standard deviation for 8-bit grey. */
const SAUVOLA_R = 128;
/** A column or row is paper when more than this share of it is lighter than the surround's tone. */
const PAPER_SHARE = 0.5;
/** The surround is darker than this share of the paper's tone. */
const SURROUND_TONE = 0.5;

/** The side of the square window over which Sauvola's local mean and contrast are taken (odd). */
export function inkWindow(page: GreyPage): number {
  return Math.max(15, Math.round(Math.min(page.width, page.height) / 40)) | 1;
}

/**
 * Where the paper is: the longest run of columns, then of rows within them, whose pixels are
 * mostly lighter than half the paper's tone (the 75th percentile of the page), so the dark table
 * or background around a scanned book page is left out, while stains, ink and rules on the paper
 * are not (a break in the run shorter than a fiftieth of the page is bridged). Inset by half the
 * ink window: at the paper's edge the dark surround would pass for ink. The whole page when no
 * paper stands out.
 */
export function paperBox(page: GreyPage, window: number): Box {
  const { data, width, height } = page;
  const threshold = SURROUND_TONE * quantileOf(sample(page), 0.75);
  const lightInColumn = new Uint32Array(width);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) if (data[row + x]! > threshold) lightInColumn[x]! += 1;
  }
  const columns = longestRun(width, (x) => lightInColumn[x]! > PAPER_SHARE * height);
  if (!columns) return { left: 0, top: 0, right: width, bottom: height };
  const lightInRow = new Uint32Array(height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = columns[0]; x < columns[1]; x += 1) if (data[row + x]! > threshold) lightInRow[y]! += 1;
  }
  const rows = longestRun(height, (y) => lightInRow[y]! > PAPER_SHARE * (columns[1] - columns[0]));
  if (!rows) return { left: 0, top: 0, right: width, bottom: height };
  const inset = (run: [number, number], size: number) => {
    const [start, end] = run;
    // Only an edge inside the image has a dark surround beside it.
    const from = start > 0 ? start + (window >> 1) : 0;
    const to = end < size ? end - (window >> 1) : size;
    return to - from > window ? [from, to] : [0, size];
  };
  const [left, right] = inset(columns, width);
  const [top, bottom] = inset(rows, height);
  return { left: left!, top: top!, right: right!, bottom: bottom! };
}

/** Every fourth pixel of every fourth row: enough for a histogram, a sixteenth of the work. */
function sample(page: GreyPage): Uint8Array {
  const out: number[] = [];
  for (let y = 0; y < page.height; y += 4) for (let x = 0; x < page.width; x += 4) out.push(page.data[y * page.width + x]!);
  return Uint8Array.from(out);
}

function quantileOf(values: Uint8Array, q: number): number {
  const counts = new Uint32Array(256);
  for (const v of values) counts[v]! += 1;
  let seen = 0;
  for (let v = 0; v < 256; v += 1) {
    seen += counts[v]!;
    if (seen > q * values.length) return v;
  }
  return 255;
}

/**
 * The longest run of indices 0..size-1 where `keep` holds, as [start, end), bridging breaks
 * shorter than a fiftieth of `size` (a rule across the page); null when none.
 */
function longestRun(size: number, keep: (i: number) => boolean): [number, number] | null {
  const bridge = Math.max(1, Math.round(size / 50));
  let best: [number, number] | null = null;
  let start = -1;
  let lastKept = -1;
  for (let i = 0; i <= size; i += 1) {
    const kept = i < size && keep(i);
    if (kept) {
      if (start < 0 || i - lastKept > bridge) {
        if (start >= 0 && (!best || lastKept + 1 - start > best[1] - best[0])) best = [start, lastKept + 1];
        start = i;
      }
      lastKept = i;
    }
  }
  if (start >= 0 && (!best || lastKept + 1 - start > best[1] - best[0])) best = [start, lastKept + 1];
  return best;
}

/**
 * The ink of the page inside `box` by Sauvola's local threshold (Sauvola & Pietikäinen, Pattern
 * Recognition 33(2), 2000): a pixel is ink when darker than m * (1 + k * (s / R - 1)) for the mean
 * m and standard deviation s of the window around it. Stained parchment and uneven lighting keep
 * their text, and a uniformly dark area (a shadow, the background) gives no ink. Answers 1 for ink,
 * 0 for paper, over the whole page (outside `box` all paper).
 */
export function sauvolaInk(page: GreyPage, box: Box, window: number): Uint8Array {
  const { data, width } = page;
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  // Integral images of the box's values and squares, one row and column of zeros in front.
  const stride = w + 1;
  const sum = new Float64Array(stride * (h + 1));
  const squares = new Float64Array(stride * (h + 1));
  for (let y = 0; y < h; y += 1) {
    let rowSum = 0;
    let rowSquares = 0;
    const source = (box.top + y) * width + box.left;
    for (let x = 0; x < w; x += 1) {
      const v = data[source + x]!;
      rowSum += v;
      rowSquares += v * v;
      const at = (y + 1) * stride + x + 1;
      sum[at] = sum[at - stride]! + rowSum;
      squares[at] = squares[at - stride]! + rowSquares;
    }
  }
  const ink = new Uint8Array(page.width * page.height);
  const half = window >> 1;
  for (let y = 0; y < h; y += 1) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(h, y + half + 1);
    const target = (box.top + y) * width + box.left;
    for (let x = 0; x < w; x += 1) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(w, x + half + 1);
      const n = (y1 - y0) * (x1 - x0);
      const a = y0 * stride + x0;
      const b = y0 * stride + x1;
      const c = y1 * stride + x0;
      const d = y1 * stride + x1;
      const mean = (sum[d]! - sum[b]! - sum[c]! + sum[a]!) / n;
      const variance = (squares[d]! - squares[b]! - squares[c]! + squares[a]!) / n - mean * mean;
      const deviation = Math.sqrt(Math.max(0, variance));
      if (data[target + x]! < mean * (1 + SAUVOLA_K * (deviation / SAUVOLA_R - 1))) ink[target + x] = 1;
    }
  }
  return ink;
}
