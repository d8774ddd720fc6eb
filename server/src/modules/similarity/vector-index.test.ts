import { DISTANCE_ALGORITHMS, type DistanceAlgorithm } from '@pim/contract';
import { describe, expect, it } from 'vitest';
import { VectorIndex } from './vector-index.js';

/** A seeded generator, so a failure can be run again. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** The distance as the textbook writes it, over the picked features. */
function reference(a: number[], b: number[], algorithm: DistanceAlgorithm, features: number[]): number {
  const d = features.map((f) => (a[f] ?? 0) - (b[f] ?? 0));
  if (algorithm === 'Taxicab') return d.reduce((s, x) => s + Math.abs(x), 0);
  if (algorithm === 'Chebyshev') return Math.max(...d.map(Math.abs));
  if (algorithm === 'Cosine') {
    const dot = features.reduce((s, f) => s + (a[f] ?? 0) * (b[f] ?? 0), 0);
    const na = Math.hypot(...features.map((f) => a[f] ?? 0));
    const nb = Math.hypot(...features.map((f) => b[f] ?? 0));
    return 1 - dot / (na * nb);
  }
  return Math.hypot(...d);
}

describe('VectorIndex', () => {
  const rand = random(7);
  const vectors = Array.from({ length: 300 }, (_, i) => ({
    id: `s${String(i).padStart(3, '0')}`,
    imageId: `image-${i % 40}`,
    features: Array.from({ length: i % 10 === 0 ? 12 : 16 }, () => rand() - 0.3),
  }));
  const index = new VectorIndex('builtin', '1', vectors);

  it('gives the k nearest by every distance over any features, as a full sort would', () => {
    for (const algorithm of DISTANCE_ALGORITHMS) {
      for (const features of [null, [0, 1, 2, 3, 4], [3, 15, 40]]) {
        const query = Float32Array.from(vectors[5]!.features);
        const picked = features ?? Array.from({ length: 16 }, (_, i) => i);
        const accept = (row: number) => row % 3 !== 0;
        const got = index.nearest({ query, algorithm, features }, 10, accept);
        const want = vectors
          .map((v, row) => ({ row, distance: reference(Array.from(query), Array.from(Float32Array.from(v.features)), algorithm, picked.filter((f) => f < 16)) }))
          .filter(({ row }) => accept(row))
          .sort((a, b) => a.distance - b.distance || a.row - b.row)
          .slice(0, 10);
        expect(got.map((n) => n.index)).toEqual(want.map((w) => w.row));
        got.forEach((n, i) => expect(n.distance).toBeCloseTo(want[i]!.distance, 4));
      }
    }
  });

  it('reports the cosine similarity beside any distance, and finds among given rows only', () => {
    const query = index.vector(8);
    const [self] = index.nearestAmong({ query, algorithm: 'Euclidean', features: null }, [8, 9, 10], 1);
    expect(self).toMatchObject({ index: 8, distance: 0 });
    expect(self!.cosine).toBeCloseTo(1, 5);
    const among = index.nearestAmong({ query, algorithm: 'Taxicab', features: null }, [50, 20, 30], 3, (row) => row !== 20);
    expect(among.map((n) => n.index).sort()).toEqual([30, 50]);
  });

  it("gives each image the mean of its snippets' vectors, and masks images by id", () => {
    const image = index.imageNumber('image-3')!;
    const rows = index.rowsOfImage(image);
    expect(rows).toEqual(vectors.flatMap((v, row) => (v.imageId === 'image-3' ? [row] : [])));
    const mean = index.imageMean(image);
    for (let d = 0; d < index.dims; d += 1) {
      expect(mean[d]).toBeCloseTo(rows.reduce((s, r) => s + (vectors[r]!.features[d] ?? 0), 0) / rows.length, 5);
    }
    const mask = index.imageMask(new Set(['image-3']));
    expect([...mask].filter((m) => m === 1)).toHaveLength(1);
    expect(mask[image]).toBe(1);
    expect(index.rowOf('s123')).toBe(123);
    expect(index.rowOf('missing')).toBe(-1);
  });
});
