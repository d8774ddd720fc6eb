import type { DistanceAlgorithm } from '@pim/contract';

/** One snippet's vector as the repository reads it. */
export interface SnippetVector {
  id: string;
  imageId: string;
  features: number[];
}

/** A candidate that passed the caller's filter, with its distance and cosine similarity to the query. */
export interface Neighbour {
  index: number;
  distance: number;
  cosine: number;
}

/** What a search compares: the query vector, the distance, and the features (0-based) taken. */
export interface Comparison {
  query: Float32Array;
  algorithm: DistanceAlgorithm;
  /** null: every feature. */
  features: number[] | null;
}

/**
 * A model's vectors in memory: one row of `dims` values per snippet (shorter vectors padded with
 * zeros), each snippet's image as a small number, and per image the mean of its snippets' vectors
 * (the image's descriptor, as writer identification aggregates a page). Built once per generation
 * of the model's snippets; a search then scans rows in a tight loop, which at 100,000 snippets of
 * 64 values is a few milliseconds, where SQL over cube values took hundreds.
 */
export class VectorIndex {
  readonly count: number;
  readonly dims: number;
  readonly ids: string[];
  readonly data: Float32Array;
  /** The image (an index into `images`) of each snippet. */
  readonly imageOf: Int32Array;
  readonly images: string[];
  private readonly imageIndex = new Map<string, number>();
  private means: Float32Array | null = null;
  private snippetsByImage: number[][] | null = null;

  constructor(
    readonly model: string,
    readonly generation: string,
    vectors: SnippetVector[],
  ) {
    this.count = vectors.length;
    this.dims = vectors.reduce((most, v) => Math.max(most, v.features.length), 0);
    this.ids = vectors.map((v) => v.id);
    this.data = new Float32Array(this.count * this.dims);
    this.imageOf = new Int32Array(this.count);
    this.images = [];
    vectors.forEach((v, i) => {
      this.data.set(v.features, i * this.dims);
      let image = this.imageIndex.get(v.imageId);
      if (image === undefined) {
        image = this.images.length;
        this.images.push(v.imageId);
        this.imageIndex.set(v.imageId, image);
      }
      this.imageOf[i] = image;
    });
  }

  /** The snippet's row, or -1. */
  rowOf(id: string): number {
    if (!this.rows) this.rows = new Map(this.ids.map((snippetId, i) => [snippetId, i]));
    return this.rows.get(id) ?? -1;
  }
  private rows: Map<string, number> | null = null;

  /** A mask over the images (by number): 1 where `allowed` holds the image's id; null allows all. */
  imageMask(allowed: ReadonlySet<string> | null): Uint8Array {
    const mask = new Uint8Array(this.images.length);
    this.images.forEach((id, image) => (mask[image] = allowed === null || allowed.has(id) ? 1 : 0));
    return mask;
  }

  /** The image id of a snippet's row. */
  imageIdOf(row: number): string {
    return this.images[this.imageOf[row]!]!;
  }

  imageNumber(imageId: string): number | undefined {
    return this.imageIndex.get(imageId);
  }

  vector(row: number): Float32Array {
    return this.data.subarray(row * this.dims, (row + 1) * this.dims);
  }

  /** The rows of each image's snippets. */
  rowsOfImage(image: number): number[] {
    if (!this.snippetsByImage) {
      const byImage: number[][] = this.images.map(() => []);
      for (let i = 0; i < this.count; i += 1) byImage[this.imageOf[i]!]!.push(i);
      this.snippetsByImage = byImage;
    }
    return this.snippetsByImage[image] ?? [];
  }

  /** The image's descriptor: the mean of its snippets' vectors. */
  imageMean(image: number): Float32Array {
    const means = this.imageMeans();
    return means.subarray(image * this.dims, (image + 1) * this.dims);
  }

  private imageMeans(): Float32Array {
    if (this.means) return this.means;
    const means = new Float32Array(this.images.length * this.dims);
    const counts = new Int32Array(this.images.length);
    for (let i = 0; i < this.count; i += 1) {
      const image = this.imageOf[i]!;
      counts[image]! += 1;
      const from = i * this.dims;
      const to = image * this.dims;
      for (let d = 0; d < this.dims; d += 1) means[to + d]! += this.data[from + d]!;
    }
    for (let image = 0; image < this.images.length; image += 1) {
      for (let d = 0; d < this.dims; d += 1) means[image * this.dims + d]! /= counts[image] || 1;
    }
    this.means = means;
    return means;
  }

  /**
   * The k snippets nearest to the query among those `accept` lets through, nearest first; ties
   * by row, so answers are stable.
   */
  nearest(comparison: Comparison, k: number, accept: (row: number) => boolean): Neighbour[] {
    const measure = measurer(comparison, this.dims);
    const best = new BoundedBest(k);
    for (let row = 0; row < this.count; row += 1) {
      if (!accept(row)) continue;
      const distance = measure.distance(this.data, row * this.dims);
      if (best.wants(distance)) best.add({ index: row, distance, cosine: Number.NaN });
    }
    return best.sorted().map((n) => ({ ...n, cosine: measure.cosine(this.data, n.index * this.dims) }));
  }

  /** The k nearest among the given rows only (an image's snippets): no scan of the rest. */
  nearestAmong(comparison: Comparison, rows: readonly number[], k: number, accept: (row: number) => boolean = () => true): Neighbour[] {
    const measure = measurer(comparison, this.dims);
    const best = new BoundedBest(k);
    for (const row of [...rows].sort((a, b) => a - b)) {
      if (!accept(row)) continue;
      const distance = measure.distance(this.data, row * this.dims);
      if (best.wants(distance)) best.add({ index: row, distance, cosine: Number.NaN });
    }
    return best.sorted().map((n) => ({ ...n, cosine: measure.cosine(this.data, n.index * this.dims) }));
  }

  /** The k images nearest to the query by their descriptors, among those `accept` lets through. */
  nearestImages(comparison: Comparison, k: number, accept: (image: number) => boolean): Neighbour[] {
    const means = this.imageMeans();
    const measure = measurer(comparison, this.dims);
    const best = new BoundedBest(k);
    for (let image = 0; image < this.images.length; image += 1) {
      if (!accept(image)) continue;
      const distance = measure.distance(means, image * this.dims);
      if (best.wants(distance)) best.add({ index: image, distance, cosine: Number.NaN });
    }
    return best.sorted().map((n) => ({ ...n, cosine: measure.cosine(means, n.index * this.dims) }));
  }

  /** The distance and cosine between the query and one row. */
  compare(comparison: Comparison, row: number): { distance: number; cosine: number } {
    const measure = measurer(comparison, this.dims);
    return { distance: measure.distance(this.data, row * this.dims), cosine: measure.cosine(this.data, row * this.dims) };
  }
}

/** The features a comparison takes, within `dims`. */
function featureList(features: number[] | null, dims: number): Int32Array {
  if (features === null) return Int32Array.from({ length: dims }, (_, i) => i);
  return Int32Array.from(features.filter((f) => f < dims));
}

/**
 * Distance and cosine of the query to a vector stored at an offset of an array. Cosine
 * "distance" is 1 − cosine similarity; the cosine reported is always the similarity.
 */
function measurer({ query, algorithm, features }: Comparison, dims: number) {
  const picked = featureList(features, dims);
  const q = new Float32Array(picked.length);
  picked.forEach((f, i) => (q[i] = f < query.length ? query[f]! : 0));
  let qNorm = 0;
  for (let i = 0; i < q.length; i += 1) qNorm += q[i]! * q[i]!;
  qNorm = Math.sqrt(qNorm);
  const cosine = (data: Float32Array, at: number): number => {
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < picked.length; i += 1) {
      const v = data[at + picked[i]!]!;
      dot += q[i]! * v;
      norm += v * v;
    }
    return qNorm === 0 || norm === 0 ? 0 : dot / (qNorm * Math.sqrt(norm));
  };
  const distance = (data: Float32Array, at: number): number => {
    switch (algorithm) {
      case 'Cosine':
        return 1 - cosine(data, at);
      case 'Taxicab': {
        let sum = 0;
        for (let i = 0; i < picked.length; i += 1) sum += Math.abs(q[i]! - data[at + picked[i]!]!);
        return sum;
      }
      case 'Chebyshev': {
        let most = 0;
        for (let i = 0; i < picked.length; i += 1) most = Math.max(most, Math.abs(q[i]! - data[at + picked[i]!]!));
        return most;
      }
      default: {
        let sum = 0;
        for (let i = 0; i < picked.length; i += 1) {
          const diff = q[i]! - data[at + picked[i]!]!;
          sum += diff * diff;
        }
        return Math.sqrt(sum);
      }
    }
  };
  return { distance, cosine };
}

/** The k smallest distances seen, kept in a max-heap on distance (then index). */
class BoundedBest {
  private readonly heap: Neighbour[] = [];
  constructor(private readonly k: number) {}

  wants(distance: number): boolean {
    return this.k > 0 && (this.heap.length < this.k || distance < this.heap[0]!.distance);
  }

  add(n: Neighbour): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(n);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
      return;
    }
    heap[0] = n;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < heap.length && worse(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && worse(heap[right]!, heap[top]!)) top = right;
      if (top === i) break;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  }

  sorted(): Neighbour[] {
    return [...this.heap].sort((a, b) => a.distance - b.distance || a.index - b.index);
  }
}

const worse = (a: Neighbour, b: Neighbour) => a.distance > b.distance || (a.distance === b.distance && a.index > b.index);
