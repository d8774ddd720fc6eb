import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { LINE_IMAGE_HEIGHT, binarizePixels, clampBox, otsuThreshold, readLineImage, readLineImages } from './line-image.js';

/** A 400 x 200 page, pale yellow, with a black bar at x 50-150, y 40-80 (upright). */
const BAR = { left: 50, top: 40, width: 100, height: 40 };
async function page(): Promise<Buffer> {
  const bar = await sharp({ create: { width: BAR.width, height: BAR.height, channels: 3, background: '#000000' } }).png().toBuffer();
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#f4e8b0' } })
    .composite([{ input: bar, left: BAR.left, top: BAR.top }])
    .png()
    .toBuffer();
}

const mean = (pixels: Uint8Array) => pixels.reduce((a, b) => a + b, 0) / pixels.length;

describe('readLineImage', () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await page();
  });

  it('scales the box to the normalised height, keeping its aspect ratio, in one 8-bit grey channel', async () => {
    const line = await readLineImage(png, { x: 40, y: 30, w: 200, h: 50 });
    expect([line.width, line.height]).toEqual([256, LINE_IMAGE_HEIGHT]);
    expect(line.pixels.length).toBe(256 * 64);
    // The bar fills x 10-110 (scaled: 13-141) and y 10-50 (13-64) of the box.
    expect(line.pixels[40 * 256 + 70]).toBeLessThan(30);
    expect(line.pixels[5 * 256 + 200]).toBeGreaterThan(200);
    const taller = await readLineImage(png, { x: 40, y: 30, w: 200, h: 50 }, { height: 100 });
    expect([taller.width, taller.height]).toEqual([400, 100]);
  });

  it('clamps a box that reaches past the image to the image', async () => {
    const clamped = await readLineImage(png, { x: -30, y: -20, w: 100, h: 60 });
    const inside = await readLineImage(png, { x: 0, y: 0, w: 70, h: 40 });
    expect([clamped.width, clamped.height]).toEqual([112, 64]);
    expect(clamped.pixels).toEqual(inside.pixels);
    const corner = await readLineImage(png, { x: 350, y: 150, w: 100, h: 100 });
    expect([corner.width, corner.height]).toEqual([64, 64]);
    expect(clampBox({ x: 350.5, y: -3, w: 100, h: 10.2 }, 400, 200)).toEqual({ left: 350, top: 0, width: 50, height: 8 });
  });

  it('gives an empty line for a box wholly outside the image', async () => {
    for (const box of [
      { x: 400, y: 0, w: 10, h: 10 },
      { x: -20, y: 10, w: 20, h: 10 },
      { x: 10, y: 10, w: 0, h: 10 },
    ]) {
      const line = await readLineImage(png, box);
      expect([line.width, line.height, line.pixels.length]).toEqual([0, 0, 0]);
    }
  });

  it('cuts a line longer than maxWidth to its left part instead of squashing it', async () => {
    const long = await readLineImage(png, { x: 0, y: 40, w: 400, h: 20 }, { maxWidth: 320 });
    const left = await readLineImage(png, { x: 0, y: 40, w: 100, h: 20 });
    expect([long.width, long.height]).toEqual([320, 64]);
    expect(long.pixels).toEqual(left.pixels);
    const whole = await readLineImage(png, { x: 0, y: 40, w: 400, h: 20 });
    expect(whole.width).toBe(1280);
  });

  it('binarises with Otsu on request: ink 0, background 255', async () => {
    const line = await readLineImage(png, { x: 40, y: 30, w: 200, h: 50 }, { binarize: true });
    expect(new Set(line.pixels)).toEqual(new Set([0, 255]));
    expect(line.pixels[40 * 256 + 70]).toBe(0);
    expect(line.pixels[5 * 256 + 200]).toBe(255);
  });

  it('reads boxes in the upright image, its EXIF orientation applied', async () => {
    // Stored turned a quarter, with orientation 6 telling viewers to turn it back.
    const stored = await sharp(png).rotate(270).png().toBuffer();
    const jpeg = await sharp(stored).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const onBar = await readLineImage(jpeg, { x: BAR.left + 10, y: BAR.top + 10, w: 80, h: 20 });
    const offBar = await readLineImage(jpeg, { x: 200, y: 120, w: 80, h: 20 });
    expect(mean(onBar.pixels)).toBeLessThan(40);
    expect(mean(offBar.pixels)).toBeGreaterThan(200);
  });
});

describe('readLineImages', () => {
  it('gives every box of a page as readLineImage does, in order, an empty line for a box outside', async () => {
    const png = await page();
    const boxes = [
      { x: 40, y: 30, w: 200, h: 50 },
      { x: 500, y: 0, w: 10, h: 10 },
      { x: -30, y: -20, w: 100, h: 60 },
      { x: 0, y: 40, w: 400, h: 20 },
    ];
    const options = { height: 48, maxWidth: 700 };
    const lines = await readLineImages(png, boxes, options);
    expect(lines).toHaveLength(4);
    for (const [i, box] of boxes.entries()) {
      const one = await readLineImage(png, box, options);
      expect([lines[i]!.width, lines[i]!.height], `box ${i}`).toEqual([one.width, one.height]);
      expect(lines[i]!.pixels, `box ${i}`).toEqual(one.pixels);
    }
    expect(lines[1]!.width).toBe(0);
    expect(lines[3]!.width).toBe(700);
    expect(await readLineImages(png, [])).toEqual([]);
  });
});

describe('otsuThreshold', () => {
  it('splits a bimodal histogram between its modes', () => {
    // 300 dark pixels spread around 40 and 700 light ones around 200 (a fixed pseudo-random spread).
    const pixels = new Uint8Array(1000);
    for (let i = 0; i < 1000; i += 1) {
      const spread = ((i * 7919) % 21) - 10;
      pixels[i] = i < 300 ? 40 + spread : 200 + spread;
    }
    const t = otsuThreshold(pixels);
    expect(t).toBeGreaterThanOrEqual(50);
    expect(t).toBeLessThan(190);
    const binary = binarizePixels(pixels);
    expect(binary.slice(0, 300).every((v) => v === 0)).toBe(true);
    expect(binary.slice(300).every((v) => v === 255)).toBe(true);
  });

  it('puts the threshold in the middle of the levels that split equally well', () => {
    const two = new Uint8Array([...Array(50).fill(50), ...Array(50).fill(200)]);
    expect(otsuThreshold(two)).toBe(124);
    // 0 | 100, 255 and 0, 100 | 255 both leave gaps; the second has the larger between-class variance.
    const skewed = new Uint8Array([...Array(10).fill(0), ...Array(10).fill(100), ...Array(80).fill(255)]);
    expect(otsuThreshold(skewed)).toBe(177);
  });

  it('cannot split a single grey level: dark levels are all ink, light ones all background', () => {
    expect(binarizePixels(new Uint8Array(64).fill(255)).every((v) => v === 255)).toBe(true);
    expect(binarizePixels(new Uint8Array(64).fill(180)).every((v) => v === 255)).toBe(true);
    expect(binarizePixels(new Uint8Array(64).fill(20)).every((v) => v === 0)).toBe(true);
    expect(otsuThreshold(new Uint8Array(0))).toBe(254);
  });
});
