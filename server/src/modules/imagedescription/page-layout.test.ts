import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { textPage } from '../../test-support/text-images.js';
import type { GreyPage } from './ink.js';
import { analysePageLayout } from './page-layout.js';

const LINES = [
  'The council of the town met on the first day',
  'of the month to hear the complaints of the',
  'citizens about the state of the old bridge,',
  'which the winter floods had badly damaged.',
  'It was agreed that the masons should begin',
  'the repairs as soon as the river fell, and',
  'that the cost should be shared by the guilds',
  'in proportion to the goods they carried over.',
  'The clerk was told to write to the bishop,',
  'asking for his help and for stone from the',
];

async function grey(image: Sharp): Promise<GreyPage> {
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** A printed page of the lines above, with white margins around it, as a scan has. */
const page = async () => sharp(await textPage(LINES)).extend({ top: 150, bottom: 150, left: 100, right: 100, background: '#ffffff' });

describe('analysePageLayout', () => {
  it('finds every line of a printed page in one column, unskewed', async () => {
    const layout = analysePageLayout(await grey(await page()));
    expect(layout.blank).toBe(false);
    expect(layout.columns).toHaveLength(1);
    expect(layout.columns[0]!.lines).toHaveLength(LINES.length);
    expect(Math.abs(layout.skewDegrees!)).toBeLessThanOrEqual(0.1);
    // Lines follow each other 100 px apart (the text page's line height).
    expect(layout.columns[0]!.pitch).toBeGreaterThanOrEqual(95);
    expect(layout.columns[0]!.pitch).toBeLessThanOrEqual(105);
  });

  it('splits two columns at the gutter and counts the lines of each', async () => {
    const column = await (await page()).png().toBuffer();
    const { width, height } = await sharp(column).metadata();
    const spread = sharp({ create: { width: 2 * width + 120, height, channels: 3, background: '#ffffff' } }).composite([
      { input: column, left: 0, top: 0 },
      { input: await sharp(await textPage(LINES.slice(0, 7))).extend({ top: 150, bottom: 150 + 3 * 100, left: 100, right: 100, background: '#ffffff' }).png().toBuffer(), left: width + 120, top: 0 },
    ]);
    const layout = analysePageLayout(await grey(sharp(await spread.png().toBuffer())));
    expect(layout.columns.map((c) => c.lines.length)).toEqual([LINES.length, 7]);
    expect(layout.columns[0]!.right).toBeLessThan(layout.columns[1]!.left);
  });

  it('measures the skew of a page turned 3 degrees clockwise', async () => {
    const turned = sharp(await (await page()).png().toBuffer()).rotate(3, { background: '#ffffff' });
    const layout = analysePageLayout(await grey(sharp(await turned.png().toBuffer())));
    expect(layout.skewDegrees).toBeGreaterThanOrEqual(2.8);
    expect(layout.skewDegrees).toBeLessThanOrEqual(3.2);
    expect(layout.columns[0]!.lines).toHaveLength(LINES.length);
  });

  it('finds the paper inside a dark surround, and no text on a blank page', async () => {
    const paper = await sharp({ create: { width: 900, height: 1300, channels: 3, background: '#efe6d0' } }).png().toBuffer();
    const scan = sharp({ create: { width: 1100, height: 1400, channels: 3, background: '#202020' } }).composite([{ input: paper, left: 60, top: 40 }]);
    const layout = analysePageLayout(await grey(sharp(await scan.png().toBuffer())));
    expect(layout.blank).toBe(true);
    expect(layout.columns).toEqual([]);
    expect(layout.paper.left).toBeGreaterThanOrEqual(60);
    expect(layout.paper.right).toBeLessThanOrEqual(960);
    expect(layout.paper.top).toBeGreaterThanOrEqual(40);
    expect(layout.paper.bottom).toBeLessThanOrEqual(1340);
  });
});
