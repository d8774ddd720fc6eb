import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertToJpeg, embeddableJpeg, jpegFrame } from './pdf-images.js';

const colour = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: channels === 4 ? { r: 0, g: 0, b: 0, alpha: 0 } : '#8a6d3b' } });

async function asIs(bytes: Buffer) {
  return embeddableJpeg(bytes, await sharp(bytes).metadata());
}

describe('embeddableJpeg', () => {
  it('keeps baseline and progressive colour and grey JPEGs as they are', async () => {
    const baseline = await colour(60, 40).jpeg().toBuffer();
    expect(await asIs(baseline)).toEqual({ data: baseline, width: 60, height: 40, components: 3, icc: undefined });
    const progressive = await colour(30, 80).jpeg({ progressive: true }).toBuffer();
    expect((await asIs(progressive))?.data).toBe(progressive);
    const grey = await colour(20, 10).toColourspace('b-w').jpeg().toBuffer();
    expect(await asIs(grey)).toMatchObject({ data: grey, components: 1 });
  });

  it('passes an RGB ICC profile on with the JPEG', async () => {
    const bytes = await colour(20, 10).jpeg().withIccProfile('p3').toBuffer();
    const icc = (await asIs(bytes))?.icc;
    expect(icc?.subarray(16, 20).toString('latin1')).toBe('RGB ');
  });

  it('leaves to conversion what a PDF cannot show unchanged: EXIF-rotated, CMYK, other formats, lossless frames', async () => {
    expect(await asIs(await colour(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer())).toBeNull();
    expect(await asIs(await colour(40, 20).toColourspace('cmyk').jpeg().toBuffer())).toBeNull();
    expect(await asIs(await colour(40, 20).png().toBuffer())).toBeNull();
    // A baseline frame marked lossless (SOF3), with the metadata sharp gives for the baseline one.
    const baseline = await colour(40, 20).jpeg().toBuffer();
    const meta = await sharp(baseline).metadata();
    const lossless = Buffer.from(baseline);
    lossless[lossless.indexOf(Buffer.from([0xff, 0xc0])) + 1] = 0xc3;
    expect(embeddableJpeg(baseline, meta)).not.toBeNull();
    expect(embeddableJpeg(lossless, meta)).toBeNull();
  });
});

describe('jpegFrame', () => {
  it('reads the start of frame past the other segments', async () => {
    const bytes = await colour(40, 20).jpeg({ progressive: true }).withMetadata({ orientation: 1 }).withIccProfile('p3').toBuffer();
    expect(jpegFrame(bytes)).toEqual({ marker: 0xc2, precision: 8, components: 3 });
  });

  it('finds none in what is not a JPEG or is cut off', async () => {
    expect(jpegFrame(await colour(4, 4).png().toBuffer())).toBeNull();
    expect(jpegFrame(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
    const bytes = await colour(40, 20).jpeg().toBuffer();
    expect(jpegFrame(bytes.subarray(0, bytes.indexOf(Buffer.from([0xff, 0xc0])) + 4))).toBeNull();
  });
});

describe('convertToJpeg', () => {
  it('turns the image by its EXIF orientation', async () => {
    const rotated = await colour(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const out = await convertToJpeg(rotated);
    expect([out.width, out.height, out.components]).toEqual([20, 40, 3]);
    expect((await sharp(out.data).metadata()).format).toBe('jpeg');
  });

  it('puts transparency on white and makes 16-bit, TIFF and CMYK images 8-bit sRGB JPEGs', async () => {
    const transparent = await convertToJpeg(await colour(8, 8, 4).png().toColourspace('rgb16').toBuffer());
    const { data } = await sharp(transparent.data).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeGreaterThanOrEqual(250);
    for (const input of [await colour(50, 50).tiff().toBuffer(), await colour(50, 30).toColourspace('cmyk').jpeg().toBuffer()]) {
      const out = await convertToJpeg(input);
      const meta = await sharp(out.data).metadata();
      expect([meta.format, meta.space, meta.channels, meta.depth]).toEqual(['jpeg', 'srgb', 3, 'uchar']);
      expect([out.width, out.height]).toEqual([meta.width, meta.height]);
    }
  });
});
