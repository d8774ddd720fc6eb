import type { DrawingShape } from '@pim/contract';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { pageXmlFor } from './page-xml-export.js';

const ids = {
  page: '00000000-0000-4000-8000-000000000001',
  note: '00000000-0000-4000-8000-000000000002',
  deco: '00000000-0000-4000-8000-000000000003',
  line1: '00000000-0000-4000-8000-000000000004',
  base1: '00000000-0000-4000-8000-000000000005',
  base2: '00000000-0000-4000-8000-000000000006',
  noteLine: '00000000-0000-4000-8000-000000000007',
  number: '00000000-0000-4000-8000-000000000008',
};

const shape = (id: string, kind: DrawingShape['kind'], label: DrawingShape['label'], points: [number, number][]): DrawingShape => ({ id, kind, label, points });

/** A page 400 x 600: a text region holding a marginal note, a decoration, lines in and out of them. */
const DRAWING: DrawingShape[] = [
  shape(ids.page, 'polygon', 'region', [[10, 10], [390, 10], [390, 500], [10, 500]]),
  shape(ids.note, 'polygon', 'marginalia', [[300, 100], [380, 100], [380, 200], [300, 200]]),
  shape(ids.deco, 'polygon', 'decoration', [[20, 520], [100, 520], [60, 590]]),
  shape(ids.line1, 'polygon', 'text-line', [[20, 20], [280, 20], [280, 60], [20, 60]]),
  shape(ids.base1, 'line', 'baseline', [[22, 55], [150, 57], [278, 55]]),
  shape(ids.base2, 'line', 'baseline', [[20, 300], [280, 300]]),
  shape(ids.noteLine, 'line', 'text-line', [[305, 150], [375, 150]]),
  shape(ids.number, 'polygon', 'page-number', [[190, 560], [210, 560], [210, 580], [190, 580]]),
  // Outside every region: goes into the region made for drawn lines.
  shape('00000000-0000-4000-8000-000000000009', 'line', 'baseline', [[300, 595], [390, 595]]),
];

function exported(drawing: DrawingShape[], layout: unknown = null) {
  const xml = pageXmlFor({ imageFilename: 'f.png', imageWidth: 400, imageHeight: 600, created: new Date(0), lastChange: new Date(0), layout, drawing });
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['TextRegion', 'TextLine', 'GraphicRegion'].includes(name),
  });
  return { xml, page: parser.parse(xml).PcGts.Page };
}

describe('drawn shapes in the PAGE export', () => {
  it('makes regions of region classes and lines of line classes, each line in the smallest region holding it', () => {
    const { page } = exported(DRAWING);
    const regions = page.TextRegion as { id: string; type?: string; Coords: { points: string }; TextLine?: { id: string; Coords: { points: string }; Baseline?: { points: string } }[] }[];
    expect(regions.map((r) => [r.id, r.type])).toEqual([
      [`drawn-${ids.page}`, 'paragraph'],
      [`drawn-${ids.note}`, 'marginalia'],
      [`drawn-${ids.number}`, 'page-number'],
      ['drawn-lines', undefined],
    ]);
    expect(regions[0]!.Coords.points).toBe('10,10 390,10 390,500 10,500');

    // The baseline drawn inside the line's outline is its Baseline; the other is a line of its own.
    const [outlined, alone] = regions[0]!.TextLine!;
    expect(outlined).toEqual({
      id: `drawn-${ids.line1}`,
      Coords: { points: '20,20 280,20 280,60 20,60' },
      Baseline: { points: '22,55 150,57 278,55' },
    });
    // Its outline is a band above it, as high as the drawn text lines (40 px).
    expect(alone).toEqual({ id: `drawn-${ids.base2}`, Coords: { points: '20,300 280,300 280,260 20,260' }, Baseline: { points: '20,300 280,300' } });

    // The note's line lies in the page region too, but the note is the smaller one.
    expect(regions[1]!.TextLine!.map((l) => [l.id, l.Baseline?.points])).toEqual([[`drawn-${ids.noteLine}`, '305,150 375,150']]);
    expect(regions[2]!.TextLine).toBeUndefined();
    expect(regions[3]!.Coords.points).toBe('300,555 390,555 390,595 300,595');

    expect(page.GraphicRegion).toEqual([{ id: `drawn-${ids.deco}`, type: 'decoration', Coords: { points: '20,520 100,520 60,590' } }]);
  });

  it('without drawn outlines a lone baseline gets a band 2% of the page high, kept on the page', () => {
    const { page } = exported([shape(ids.base1, 'line', 'baseline', [[10, 5], [90, 30]])]);
    expect(page.TextRegion[0].TextLine[0].Coords.points).toBe('10,5 90,30 90,18 10,0');
  });

  it('keeps ids unique against the layout and each other', () => {
    const layout = { regions: [{ id: `drawn-${ids.page}`, coords: '0,0 9,0 9,9', lines: [{ id: 'drawn-lines', text: 'x' }] }] };
    const { xml } = exported([DRAWING[0]!, DRAWING[5]!, DRAWING[8]!], layout);
    const all = [...xml.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(`drawn-${ids.page}`);
    expect(all).toContain('drawn_region');
    expect(all).toContain('drawn_lines');
  });

  it('exports nothing for an empty drawing', () => {
    expect(exported([]).page.TextRegion).toBeUndefined();
  });
});
