/** A dated (or scripted) neighbour of the image to date, by the distance of their descriptors. */
export interface DatedNeighbour {
  distance: number;
  year: number | null;
  script: string | null;
}

export interface DateEstimateResult {
  year: number | null;
  from: number | null;
  to: number | null;
  script: string | null;
  scriptShare: number | null;
  /** Each neighbour's weight, in the order given; they sum to 1 over the neighbours with a date. */
  weights: number[];
}

/** The share of the weight left out below and above the interval: it holds the middle 80 %. */
const TAIL = 0.1;

/**
 * A date from the nearest dated neighbours, as a k-nearest-neighbour regression robust to a stray
 * neighbour: each weighs by a Gaussian kernel of its distance scaled by the second-nearest one's (so
 * the weights do not depend on the descriptor's units), the estimate is the weighted median of their years and the
 * interval the weighted 10th to 90th percentiles. The script is the weighted majority, with its share.
 */
export function estimateDate(neighbours: DatedNeighbour[]): DateEstimateResult {
  const scale = bandwidth(neighbours.map((n) => n.distance));
  const kernel = neighbours.map((n) => Math.exp(-((n.distance / scale) ** 2) / 2));
  const dated = neighbours.map((n, i) => ({ year: n.year, weight: kernel[i]! })).filter((n): n is { year: number; weight: number } => n.year !== null);
  const datedWeight = dated.reduce((sum, n) => sum + n.weight, 0);
  const weights = neighbours.map((n, i) => (n.year === null || datedWeight === 0 ? 0 : kernel[i]! / datedWeight));

  let year: number | null = null;
  let from: number | null = null;
  let to: number | null = null;
  if (dated.length > 0 && datedWeight > 0) {
    const sorted = dated.sort((a, b) => a.year - b.year);
    year = weightedQuantile(sorted, datedWeight, 0.5);
    from = weightedQuantile(sorted, datedWeight, TAIL);
    to = weightedQuantile(sorted, datedWeight, 1 - TAIL);
  }

  const byScript = new Map<string, number>();
  let scriptWeight = 0;
  neighbours.forEach((n, i) => {
    if (n.script === null) return;
    byScript.set(n.script, (byScript.get(n.script) ?? 0) + kernel[i]!);
    scriptWeight += kernel[i]!;
  });
  const top = [...byScript].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return {
    year,
    from,
    to,
    script: top ? top[0] : null,
    scriptShare: top && scriptWeight > 0 ? top[1] / scriptWeight : null,
    weights,
  };
}

/**
 * The kernel's width: the second-nearest neighbour's distance (the nearest's when there is one), as
 * an adaptive k-nearest-neighbour bandwidth, so a near-copy of the page (distance about 0) does not
 * take all the weight and shrink the interval to one year.
 */
function bandwidth(distances: number[]): number {
  const sorted = [...distances].sort((a, b) => a - b);
  const width = sorted[Math.min(1, sorted.length - 1)] ?? 0;
  return Number.isFinite(width) && width > 0 ? width : 1;
}

/** The year at which the cumulative weight first reaches q of the whole (years sorted). */
function weightedQuantile(sorted: { year: number; weight: number }[], total: number, q: number): number {
  let sum = 0;
  for (const n of sorted) {
    sum += n.weight;
    if (sum >= q * total - 1e-9) return n.year;
  }
  return sorted[sorted.length - 1]!.year;
}

/** The year of a stored date field value (YYYY-MM-DD), or of a bare year; null for anything else. */
export function yearOf(value: string): number | null {
  const match = /^\s*(-?\d{1,4})(?:-\d{2}-\d{2})?\s*$/.exec(value);
  return match ? Number(match[1]) : null;
}

/** The date a date field takes for a year: its middle, 1 July. */
export function dateOfYear(year: number): string {
  return `${String(year).padStart(4, '0')}-07-01`;
}
