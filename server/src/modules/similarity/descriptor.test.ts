import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTOR_BLOCKS, DESCRIPTOR_SIZE, describeHandwriting, type LineImage } from './descriptor.js';
import { readLineImage } from './line-image.js';

/**
 * Synthetic handwriting: letters drawn as pen strokes (cubic curves in a box one x-height high,
 * y up from the baseline), written by a "hand" with its own slant, pen width, letter width and
 * spacing. The text of every line is drawn from the same letters with a seeded generator, so lines
 * differ in content while a hand keeps its style.
 */
type Stroke = number[]; // x0 y0 then cubic segments: c1x c1y c2x c2y x y ...
const LETTERS: Record<string, Stroke[]> = {
  o: [[0.5, 1, 0.1, 1, 0, 0.7, 0, 0.5, 0, 0.2, 0.2, 0, 0.5, 0, 0.8, 0, 1, 0.2, 1, 0.5, 1, 0.8, 0.8, 1, 0.5, 1]],
  n: [
    [0, 0, 0, 0.33, 0, 0.66, 0, 1],
    [0, 0.7, 0.2, 1.05, 0.9, 1.1, 0.9, 0.6, 0.9, 0.4, 0.9, 0.2, 0.9, 0],
  ],
  u: [
    [0, 1, 0, 0.7, 0, 0.5, 0, 0.3, 0, -0.05, 0.8, -0.1, 0.9, 0.4],
    [0.9, 1, 0.9, 0.66, 0.9, 0.33, 0.9, 0],
  ],
  l: [[0, 0.3, 0.5, 0.8, 0.7, 2.1, 0.35, 2.1, 0, 2.1, 0.1, 0.6, 0.2, 0.2, 0.3, -0.05, 0.6, 0, 0.8, 0.2]],
  e: [[0, 0.5, 0.33, 0.5, 0.66, 0.5, 1, 0.5, 1, 0.9, 0.7, 1, 0.5, 1, 0.1, 1, 0, 0.7, 0, 0.5, 0, 0.1, 0.3, 0, 0.6, 0, 0.8, 0, 0.9, 0.1, 1, 0.2]],
  i: [
    [0.3, 1, 0.3, 0.66, 0.3, 0.33, 0.3, 0],
    [0.3, 1.4, 0.3, 1.37, 0.3, 1.33, 0.3, 1.3],
  ],
  g: [
    [1, 0.5, 1, 0.8, 0.8, 1, 0.5, 1, 0.1, 1, 0, 0.7, 0, 0.5, 0, 0.2, 0.3, 0, 0.5, 0, 0.8, 0, 1, 0.3, 1, 0.5],
    [1, 1, 1, 0.5, 1, 0, 1, -0.6, 1, -1, 0.4, -1.1, 0.1, -0.8],
  ],
  d: [
    [1, 0.5, 1, 0.8, 0.8, 1, 0.5, 1, 0.1, 1, 0, 0.7, 0, 0.5, 0, 0.2, 0.2, 0, 0.5, 0, 0.8, 0, 1, 0.2, 1, 0.5],
    [1, 2, 1, 1.33, 1, 0.66, 1, 0],
  ],
};
const ALPHABET = Object.keys(LETTERS);

interface Hand {
  slant: number; // degrees, to the right
  pen: number; // stroke width, px
  letterWidth: number; // px
  spacing: number; // px between letters
}
const UPRIGHT_FINE: Hand = { slant: 0, pen: 2, letterWidth: 15, spacing: 5 };
const SLANTED_HEAVY: Hand = { slant: 30, pen: 4.5, letterWidth: 10, spacing: 2 };
const X_HEIGHT = 16;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One line of `letters` letters in the hand, as a grey PNG (dark brown ink on light paper). */
function handwrittenLine(hand: Hand, seed: number, letters = 36): Promise<Buffer> {
  const random = seeded(seed);
  const baseline = 44;
  const shear = Math.tan((hand.slant * Math.PI) / 180);
  const paths: string[] = [];
  let x = 12;
  for (let n = 0; n < letters; n += 1) {
    if (n > 0 && random() < 0.18) x += hand.letterWidth; // a word gap
    const letter = LETTERS[ALPHABET[Math.floor(random() * ALPHABET.length)]!]!;
    const wobble = 1 + (random() - 0.5) * 0.12;
    const lift = (random() - 0.5) * 2;
    const at = (u: number, v: number) => {
      const height = v * X_HEIGHT * wobble;
      return `${(x + u * hand.letterWidth * wobble + height * shear).toFixed(2)},${(baseline - lift - height).toFixed(2)}`;
    };
    for (const stroke of letter) {
      let d = `M${at(stroke[0]!, stroke[1]!)}`;
      for (let i = 2; i < stroke.length; i += 6) d += ` C${at(stroke[i]!, stroke[i + 1]!)} ${at(stroke[i + 2]!, stroke[i + 3]!)} ${at(stroke[i + 4]!, stroke[i + 5]!)}`;
      paths.push(`<path d="${d}"/>`);
    }
    x += hand.letterWidth * wobble + hand.spacing;
  }
  const width = Math.ceil(x + 12 + 2 * X_HEIGHT * shear);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64"><rect width="100%" height="100%" fill="#efe4cc"/>` +
    `<g fill="none" stroke="#3a2a1a" stroke-width="${hand.pen}" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function lineOf(hand: Hand, seed: number, options: { height?: number } = {}): Promise<LineImage> {
  const png = await handwrittenLine(hand, seed);
  const { width, height } = await sharp(png).metadata();
  return readLineImage(png, { x: 0, y: 0, w: width, h: height }, options);
}

const distance = (a: ArrayLike<number>, b: ArrayLike<number>, dims = a.length) => {
  let sum = 0;
  for (let i = 0; i < dims; i += 1) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
};
const norm = (v: ArrayLike<number>, dims = v.length) => distance(v, new Float32Array(dims), dims);

/** Whether every line's nearest other line (Euclidean over the first `dims` values, each scaled to length 1) is of its own hand, strictly. */
function nearestIsSameHand(vectors: Float32Array[], hands: number[], dims: number): boolean {
  const unit = vectors.map((v) => v.slice(0, dims).map((x) => x / norm(v, dims)));
  return unit.every((v, i) => {
    let same = Infinity;
    let other = Infinity;
    unit.forEach((w, j) => {
      if (j === i) return;
      if (hands[j] === hands[i]) same = Math.min(same, distance(v, w));
      else other = Math.min(other, distance(v, w));
    });
    return same < other;
  });
}

describe('describeHandwriting', () => {
  const HANDS = [UPRIGHT_FINE, SLANTED_HEAVY];
  // Four lines of each hand, each with its own text.
  const samples = HANDS.flatMap((_, hand) => [1, 2, 3, 4].map((n) => ({ hand, seed: n * 101 + hand })));
  const hands = samples.map((s) => s.hand);
  const lines: LineImage[] = [];
  beforeAll(async () => {
    for (const { hand, seed } of samples) lines.push(await lineOf(HANDS[hand]!, seed));
  });

  it('has DESCRIPTOR_SIZE values (at most 100), finite, of length 1, for a line with ink', () => {
    expect(DESCRIPTOR_SIZE).toBe(DESCRIPTOR_BLOCKS.reduce((n, b) => n + b.size, 0));
    expect(DESCRIPTOR_SIZE).toBeLessThanOrEqual(100);
    for (const line of lines) {
      const v = describeHandwriting(line);
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DESCRIPTOR_SIZE);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
      // Every block is a distribution, square-rooted: its values' squares sum to the block's equal share of the length.
      let offset = 0;
      for (const block of DESCRIPTOR_BLOCKS) {
        const squares = v.slice(offset, offset + block.size).reduce((sum, x) => sum + x * x, 0);
        expect(squares, block.name).toBeCloseTo(1 / DESCRIPTOR_BLOCKS.length, 5);
        expect(v.slice(offset, offset + block.size).every((x) => x >= 0)).toBe(true);
        offset += block.size;
      }
    }
  });

  it('gives the zero vector, never NaN, for blank, faint, tiny and empty lines', () => {
    const blankPaper = new Uint8Array(64 * 500).fill(236);
    // Paper grain: grey levels 226-246, which Otsu splits but which hold no ink.
    const grain = blankPaper.map((_, i) => 226 + ((i * 7919) % 21));
    const speck = new Uint8Array(64 * 500).fill(255);
    speck[30 * 500 + 250] = 0;
    const cases: LineImage[] = [
      { pixels: blankPaper, width: 500, height: 64 },
      { pixels: grain, width: 500, height: 64 },
      { pixels: speck, width: 500, height: 64 },
      { pixels: new Uint8Array([0]), width: 1, height: 1 },
      { pixels: new Uint8Array([0, 255, 255, 0, 0, 255]), width: 3, height: 2 },
      { pixels: new Uint8Array(0), width: 0, height: 0 },
      { pixels: new Uint8Array(10), width: 64, height: 64 }, // fewer pixels than the size says
    ];
    for (const line of cases) {
      const v = describeHandwriting(line);
      expect(v).toHaveLength(DESCRIPTOR_SIZE);
      expect([...v].every((x) => x === 0), `${line.width} x ${line.height}`).toBe(true);
    }
  });

  it('is deterministic: the same pixels give the same values', () => {
    const first = describeHandwriting(lines[0]!);
    const again = describeHandwriting({ ...lines[0]!, pixels: Uint8Array.from(lines[0]!.pixels) });
    expect(again).toEqual(first);
  });

  it('tells the two synthetic hands apart: every line is nearest a line of its own hand, over all values and over features 1..20', () => {
    const vectors = lines.map(describeHandwriting);
    expect(nearestIsSameHand(vectors, hands, DESCRIPTOR_SIZE)).toBe(true);
    expect(nearestIsSameHand(vectors, hands, 20)).toBe(true);
  });

  it('does not change with a uniform change of brightness', () => {
    const between = distance(describeHandwriting(lines[0]!), describeHandwriting(lines[4]!));
    for (const shift of [-80, 40]) {
      for (const line of [lines[0]!, lines[4]!]) {
        const shifted = { ...line, pixels: line.pixels.map((v) => Math.min(255, Math.max(0, v + shift))) };
        expect(distance(describeHandwriting(shifted), describeHandwriting(line)), `shift ${shift}`).toBeLessThan(between / 10);
      }
    }
  });

  it('changes little with a small change of scale, far less than between hands', async () => {
    const vectors = lines.map(describeHandwriting);
    for (const [i, height] of [
      [0, 58],
      [4, 72],
    ] as const) {
      // The same line read at another height: lengths are measured in proportion to the height.
      const scaled = describeHandwriting(await lineOf(HANDS[samples[i]!.hand]!, samples[i]!.seed, { height }));
      const toSelf = distance(scaled, vectors[i]!);
      const toOtherHand = Math.min(...vectors.filter((_, j) => hands[j] !== hands[i]).map((v) => distance(scaled, v)));
      const toOwnHand = Math.min(...vectors.filter((_, j) => hands[j] === hands[i] && j !== i).map((v) => distance(scaled, v)));
      expect(toSelf, `line ${i} at height ${height}`).toBeLessThan(toOtherHand / 3);
      expect(toSelf).toBeLessThan(toOwnHand);
    }
  });
});
