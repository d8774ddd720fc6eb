import { describe, expect, it } from 'vitest';
import { CROP_MARGIN, type PreparedPage } from '../platform/tesseract/page-image.js';
import { linesToRead, relayout } from './layout-lines.js';

/** A stored PAGE layout measured on a copy half the image's size, with a reading order. */
const LAYOUT = {
  page: { imageFilename: 'f1.png', imageWidth: 500, imageHeight: 400 },
  regions: [
    {
      id: 'r1',
      type: 'paragraph',
      coords: '0,0 499,0 499,199 0,199',
      language: 'Latin',
      text: 'old one\nold two',
      lines: [
        { id: 'r1l1', coords: '10,10 210,10 210,30 10,30', baseline: '10,28 210,28', text: 'old one', words: [{ id: 'w', coords: null, text: 'old', confidence: 0.5 }] },
        { id: 'r1l2', coords: null, baseline: null, text: 'old two' },
        { id: 'r1l3', coords: '10,40 10.5,40.5', baseline: null, text: 'a speck' },
      ],
    },
    { id: 'r2', type: 'marginalia', coords: null, text: 'kept', lines: [{ id: 'r2l1', coords: null, baseline: null, text: 'margin' }] },
  ],
  readingOrder: { kind: 'ordered', id: 'ro', members: [{ ref: 'r2' }, { ref: 'r1' }] },
};
const IMAGE = { width: 1000, height: 800 };
/** Tesseract read the image downscaled by 4/5 on each axis. */
const PAGE: PreparedPage = { path: '/x.tif', width: 800, height: 640, scaleX: 1.25, scaleY: 1.25 };

describe('linesToRead', () => {
  it("boxes each outlined line on the prepared page, from the layout's units, leaving out lines without an outline or too small to read", () => {
    // Layout unit -> image (x2) -> prepared page (/1.25): x1.6.
    expect(linesToRead(LAYOUT, IMAGE, PAGE)).toEqual([{ region: 0, line: 0, box: { left: 16, top: 16, width: 321, height: 33 } }]);
    expect(linesToRead({ regions: 'nonsense' }, IMAGE, PAGE)).toEqual([]);
    expect(linesToRead(null, IMAGE, PAGE)).toEqual([]);
  });

  it('clamps an outline that reaches past the page', () => {
    const layout = { regions: [{ lines: [{ coords: '-20,-5 5000,-5 5000,30 -20,30' }] }] };
    expect(linesToRead(layout, { width: 800, height: 640 }, { ...PAGE, scaleX: 1, scaleY: 1 })).toEqual([
      { region: 0, line: 0, box: { left: 0, top: 0, width: 800, height: 31 } },
    ]);
  });
});

describe('relayout', () => {
  it("puts Tesseract's words and text on the lines read, keeping ids, outlines, regions and the reading order", () => {
    const [line] = linesToRead(LAYOUT, IMAGE, PAGE);
    const words = [
      { left: CROP_MARGIN, top: CROP_MARGIN, width: 80, height: 32, confidence: 96.5, text: 'Anno' },
      { left: CROP_MARGIN + 96, top: CROP_MARGIN, width: 64, height: 32, confidence: null, text: 'Domini' },
    ];
    const out = relayout(LAYOUT, IMAGE, PAGE, [{ line: line!, words }]);
    expect(out.page).toEqual(LAYOUT.page);
    expect(out.readingOrder).toEqual(LAYOUT.readingOrder);
    expect(out.regions.map((r) => [r.id, r.type, r.coords, r.text ?? null])).toEqual([
      ['r1', 'paragraph', '0,0 499,0 499,199 0,199', null],
      ['r2', 'marginalia', null, 'kept'],
    ]);
    const [first, second, third] = out.regions[0]!.lines;
    expect(first).toEqual({
      id: 'r1l1',
      coords: '10,10 210,10 210,30 10,30',
      baseline: '10,28 210,28',
      text: 'Anno Domini',
      words: [
        { id: 'r1l1_w1', coords: '10,10 59,10 59,29 10,29', text: 'Anno', confidence: 0.965 },
        { id: 'r1l1_w2', coords: '70,10 109,10 109,29 70,29', text: 'Domini', confidence: null },
      ],
    });
    expect(second).toEqual(LAYOUT.regions[0]!.lines[1]);
    expect(third).toEqual(LAYOUT.regions[0]!.lines[2]);
  });

  it('gives a line read without any word an empty text', () => {
    const [line] = linesToRead(LAYOUT, IMAGE, PAGE);
    const out = relayout(LAYOUT, IMAGE, PAGE, [{ line: line!, words: [] }]);
    expect(out.regions[0]!.lines[0]).toMatchObject({ text: '', words: [] });
  });
});
