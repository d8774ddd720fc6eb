/** A connected blob of ink (8-connected): its bounding box (right and bottom exclusive) and its pixel count. */
export interface Blob {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number;
}

/** A run of ink along a row: `start` to `end` (exclusive) on row `y`, part of `blobs[blob]`. */
export interface InkRun {
  y: number;
  start: number;
  end: number;
  blob: number;
}

/**
 * The 8-connected components of the ink (1 = ink), found over runs of ink along each row: a run
 * joins every run of the row above that it touches, corners included (union-find), so the work
 * grows with the runs rather than the pixels. Gives the blobs and the runs they are made of.
 */
export function inkBlobs(ink: Uint8Array, width: number, height: number): { blobs: Blob[]; runs: InkRun[] } {
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const runs: { y: number; start: number; end: number; label: number }[] = [];
  let previous: typeof runs = [];
  for (let y = 0; y < height; y += 1) {
    const current: typeof runs = [];
    const row = y * width;
    let x = 0;
    let above = 0;
    while (x < width) {
      if (ink[row + x] === 0) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < width && ink[row + x] === 1) x += 1;
      const label = parent.length;
      parent.push(label);
      const run = { y, start, end: x, label };
      // Runs above that end before this one starts (less the diagonal) can touch no later run either.
      while (above < previous.length && previous[above]!.end < start) above += 1;
      for (let i = above; i < previous.length && previous[i]!.start <= x; i += 1) {
        const a = find(previous[i]!.label);
        const b = find(label);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
      current.push(run);
      runs.push(run);
    }
    previous = current;
  }
  const blobs: Blob[] = [];
  const indexOfRoot = new Map<number, number>();
  const inkRuns: InkRun[] = [];
  for (const run of runs) {
    const root = find(run.label);
    let index = indexOfRoot.get(root);
    if (index === undefined) {
      index = blobs.length;
      indexOfRoot.set(root, index);
      blobs.push({ left: run.start, top: run.y, right: run.end, bottom: run.y + 1, pixels: run.end - run.start });
    } else {
      const blob = blobs[index]!;
      blob.left = Math.min(blob.left, run.start);
      blob.right = Math.max(blob.right, run.end);
      blob.bottom = run.y + 1;
      blob.pixels += run.end - run.start;
    }
    inkRuns.push({ y: run.y, start: run.start, end: run.end, blob: index });
  }
  return { blobs, runs: inkRuns };
}
