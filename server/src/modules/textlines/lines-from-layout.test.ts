import { describe, expect, it } from 'vitest';
import { altoRegions, parseAltoXml } from '../uploads/alto-xml.js';
import { parseHocr } from '../uploads/hocr.js';
import { parsePageXml } from '../uploads/page-xml.js';
import { boundingBox, linesFromLayout } from './lines-from-layout.js';

const IMAGE = { width: 100, height: 50 };

/** The layout the upload stores for a PAGE file. */
function pageLayout(regions: string): unknown {
  const doc = parsePageXml(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
      `<Metadata><Creator>T</Creator></Metadata><Page imageFilename="p.png" imageWidth="100" imageHeight="50">${regions}</Page></PcGts>`,
  );
  return { page: {}, regions: doc.regions };
}

const line = (id: string, text: string, points?: string) =>
  `<TextLine id="${id}">${points ? `<Coords points="${points}"/>` : ''}<TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`;

describe('text lines from a stored layout', () => {
  it('PAGE: regions in layout order then their lines (nested and table regions too), text exact, bbox of the polygon', () => {
    const layout = pageLayout(
      `<TextRegion id="r1"><Coords points="0,0 99,0 99,20 0,20"/>${line('a', ' first  line ', '10,5 40,3 42,12 9,14')}${line('b', 'ſecond ⁊ 𝔄', '50,5 60,5 60,15')}</TextRegion>` +
        `<TextRegion id="r2"><Coords points="0,0 1,1"/>${line('c', 'third', '-5,40 120,40 120,70 -5,70')}</TextRegion>` +
        `<TableRegion id="t"><Coords points="0,0 1,1"/><TextRegion id="cell"><Coords points="0,0 1,1"/>${line('d', 'fourth')}</TextRegion></TableRegion>`,
    );
    const lines = linesFromLayout(layout, 'page', IMAGE);
    expect(lines.map((l) => [l.lineIndex, l.text])).toEqual([
      [0, ' first  line '],
      [1, 'ſecond ⁊ 𝔄'],
      [2, 'third'],
      [3, 'fourth'],
    ]);
    expect(lines.map((l) => l.region)).toEqual([
      { x: 9, y: 3, w: 34, h: 12 },
      { x: 50, y: 5, w: 11, h: 11 },
      // Clamped to the 100 x 50 image.
      { x: 0, y: 40, w: 100, h: 10 },
      null,
    ]);
    // Lines without words carry no confidence.
    expect(lines.every((l) => l.confidence === null && l.lowestConf === null)).toBe(true);
  });

  it('PAGE: confidence the mean of the Word TextEquiv@conf (0..1) and lowestConf the least', () => {
    const word = (id: string, conf: string) => `<Word id="${id}"><Coords points="1,1 5,1 5,5"/><TextEquiv${conf}><Unicode>${id}</Unicode></TextEquiv></Word>`;
    const layout = pageLayout(
      `<TextRegion id="r"><Coords points="0,0 9,9"/>` +
        `<TextLine id="a"><Coords points="1,1 9,1 9,9"/>${word('x', ' conf="0.9"')}${word('y', ' conf="0.6"')}${word('z', '')}<TextEquiv><Unicode>x y z</Unicode></TextEquiv></TextLine>` +
        `</TextRegion>`,
    );
    const [line] = linesFromLayout(layout, 'page', IMAGE);
    expect(line).toMatchObject({ text: 'x y z', lowestConf: 0.6 });
    expect(line!.confidence).toBeCloseTo(0.75, 10);
  });

  it('ALTO: lines of each TextBlock, confidence the mean of the word WCs (0..1) and lowestConf the least', () => {
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"><Description><MeasurementUnit>pixel</MeasurementUnit></Description>` +
      `<Layout><Page ID="p" WIDTH="100" HEIGHT="50"><PrintSpace>` +
      `<TextBlock ID="b1"><TextLine ID="l1" HPOS="5" VPOS="6" WIDTH="30" HEIGHT="8"><String CONTENT="Der" WC="0.9"/><SP/><String CONTENT="Kant" WC="0.5"/><SP/><String CONTENT="x"/></TextLine></TextBlock>` +
      `<TextBlock ID="b2"><TextLine ID="l2"><String CONTENT="ohne"/></TextLine></TextBlock>` +
      `</PrintSpace></Page></Layout></alto>`;
    const layout = { page: {}, regions: altoRegions(parseAltoXml(xml), IMAGE) };
    const lines = linesFromLayout(layout, 'alto', IMAGE);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ lineIndex: 0, text: 'Der Kant x', lowestConf: 0.5, region: { x: 5, y: 6, w: 31, h: 9 } });
    expect(lines[0]!.confidence).toBeCloseTo(0.7, 10);
    expect(lines[1]).toMatchObject({ lineIndex: 1, text: 'ohne', confidence: null, lowestConf: null, region: null });
  });

  it('hOCR: x_wconf (0..100) scaled to 0..1; the line bbox becomes the region', () => {
    const word = (text: string, conf: number) => `<span class="ocrx_word" title="bbox 1 2 3 4; x_wconf ${conf}">${text}</span>`;
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="ocr-system" content="tesseract"/>` +
      `<meta name="ocr-capabilities" content="ocr_page ocr_line ocrx_word"/></head><body>` +
      `<div class="ocr_page" title="bbox 0 0 100 50"><p class="ocr_par" title="bbox 0 0 100 50">` +
      `<span class="ocr_line" title="bbox 10 20 60 30">${word('one', 96)} ${word('two', 80)}</span>` +
      `<span class="ocr_line" title="bbox 10 32 60 44">${word('three', 100)}</span></p></div></body></html>`;
    const layout = { page: {}, regions: parseHocr(xml).regions };
    const lines = linesFromLayout(layout, 'hocr', IMAGE);
    expect(lines.map((l) => [l.text, l.lowestConf, l.region])).toEqual([
      ['one two', 0.8, { x: 10, y: 20, w: 51, h: 11 }],
      ['three', 1, { x: 10, y: 32, w: 51, h: 13 }],
    ]);
    expect(lines[0]!.confidence).toBeCloseTo(0.88, 10);
  });

  it('reads damaged layouts as the PAGE export does: non-objects skipped, missing text empty, out-of-range confidences left out', () => {
    const layout = {
      regions: [null, 'x', { lines: [7, { text: 5, coords: 'none', words: [{ confidence: 1.5 }, { confidence: -1 }, { confidence: 'high' }] }] }, { lines: 'no' }, { lines: [{ text: 'last' }] }],
    };
    expect(linesFromLayout(layout, 'alto', IMAGE)).toEqual([
      { lineIndex: 0, text: '', confidence: null, lowestConf: null, region: null },
      { lineIndex: 1, text: 'last', confidence: null, lowestConf: null, region: null },
    ]);
    for (const nothing of [null, 'layout', 3, [], { regions: {} }]) expect(linesFromLayout(nothing, 'page', IMAGE)).toEqual([]);
  });

  it('bounding boxes: fractional points widen to whole pixels, a polygon outside the image has none', () => {
    expect(boundingBox('1.5,2.5 3.2,4.8', IMAGE)).toEqual({ x: 1, y: 2, w: 4, h: 4 });
    expect(boundingBox('7,7', IMAGE)).toEqual({ x: 7, y: 7, w: 1, h: 1 });
    expect(boundingBox('200,10 300,20', IMAGE)).toBeNull();
    expect(boundingBox('10,-30 20,-5', IMAGE)).toBeNull();
    expect(boundingBox('', IMAGE)).toBeNull();
  });
});
