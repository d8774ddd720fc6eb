import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_TESSERACT, tesseractWithEnglish, textPage } from '../../test-support/text-images.js';
import { TesseractError, runTesseract, tesseractVersion } from './cli.js';
import { PageImageError, cropLine, preparePage } from './page-image.js';
import { recogniseLines, recognisePage, wordsOfTsv } from './recognise.js';

const HAS_TESSERACT = tesseractWithEnglish();
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-tesseract-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('preparePage', () => {
  it('writes the page upright in 8-bit grey on white, at full size', async () => {
    // 300 x 200 as stored, shown 200 x 300 (EXIF orientation 6: turn clockwise), half transparent.
    const source = path.join(dir, 'turned.png');
    await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0 } } })
      .withMetadata({ orientation: 6 })
      .png()
      .toFile(source);
    const page = await preparePage(source, path.join(dir, 'turned.tif'));
    expect(page).toMatchObject({ width: 200, height: 300, scaleX: 1, scaleY: 1 });
    const meta = await sharp(page.path).metadata();
    expect(meta).toMatchObject({ format: 'tiff', width: 200, height: 300, channels: 1, depth: 'uchar' });
    const { data } = await sharp(page.path).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBe(255);
  });

  it('downscales a page over the pixel cap and says how its pixels map back', async () => {
    const source = path.join(dir, 'large.png');
    await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#ffffff' } }).png().toFile(source);
    const page = await preparePage(source, path.join(dir, 'large.tif'), 1_000_000);
    expect(page).toMatchObject({ width: 2000, height: 500, scaleX: 2, scaleY: 2 });
  });

  it('refuses a damaged image with a PageImageError', async () => {
    const source = path.join(dir, 'damaged.png');
    fs.writeFileSync(source, (await textPage(['cut off'])).subarray(0, 200));
    await expect(preparePage(source, path.join(dir, 'damaged.tif'))).rejects.toBeInstanceOf(PageImageError);
  });
});

describe.skipIf(!HAS_TESSERACT)('the Tesseract CLI', () => {
  it('says its version', async () => {
    expect(await tesseractVersion()).toMatch(/^\d+\.\d+/);
  });

  it('reads a page as hOCR, and lines listed in a file as TSV words per line', async () => {
    const source = path.join(dir, 'page.png');
    fs.writeFileSync(source, await textPage(['Printed in the year', 'of our Lord']));
    const page = await preparePage(source, path.join(dir, 'page.tif'));
    expect(await recognisePage(page.path, { language: 'eng' })).toMatch(/<span class='ocrx_word'[^>]*>Printed<\/span>/);

    await cropLine(page, { left: 40, top: 50, width: 700, height: 80 }, path.join(dir, 'line-0.png'));
    await cropLine(page, { left: 40, top: 150, width: 500, height: 80 }, path.join(dir, 'line-1.png'));
    fs.writeFileSync(path.join(dir, 'lines.txt'), `${path.join(dir, 'line-0.png')}\n${path.join(dir, 'line-1.png')}\n`);
    const words = wordsOfTsv(await recogniseLines(path.join(dir, 'lines.txt'), { language: 'eng' }), 2);
    expect(words.map((line) => line.map((w) => w.text).join(' '))).toEqual(['Printed in the year', 'of our Lord']);
  });

  it('tells an image it cannot read from a language it cannot load', async () => {
    const garbage = path.join(dir, 'garbage.png');
    fs.writeFileSync(garbage, 'not an image');
    await expect(runTesseract([garbage, '-'])).rejects.toMatchObject({ failure: 'input', message: expect.stringContaining('could not read this image') });
    const page = path.join(dir, 'lang.png');
    fs.writeFileSync(page, await textPage(['x']));
    const error = await runTesseract([page, '-', '-l', 'xyz']).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TesseractError);
    expect(error).toMatchObject({ failure: 'language' });
  });

  it('kills Tesseract when aborted, however long it would take', async () => {
    // Tesseract opening a FIFO nobody writes to waits for ever: only the kill ends it.
    const fifo = path.join(dir, 'never.fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const reading = runTesseract([fifo, '-'], controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(reading).rejects.toThrow('cancelled');
    await expect(runTesseract([fifo, '-'], controller.signal)).rejects.toThrow('cancelled');
  });
});
