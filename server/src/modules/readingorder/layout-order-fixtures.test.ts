import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { altoRegions, parseAltoXml } from '../uploads/alto-xml.js';
import { parseHocr } from '../uploads/hocr.js';
import { parsePageXml } from '../uploads/page-xml.js';
import { reorderLayout } from './layout-order.js';

interface Layout {
  regions: { id: string | null; lines: { id: string | null }[] }[];
}

const KANT = fixturePath('page', 'kant1784', 'data');
const IFORAL = fixturePath('page', 'iforal');

/** Real layouts whose annotators put their regions and lines in reading order. */
const LAYOUTS: { name: string; file: string; read: (xml: string) => { format: string; layout: Layout } }[] = [
  // A title page: headings, a drop capital inside the first paragraph, a signature mark beside a catchword.
  { name: 'kant1784 p. 17 (PAGE)', file: `${KANT}/OCR-D-GT-PAGE/PAGE_0017_PAGE.xml`, read: page },
  { name: 'kant1784 p. 20 (PAGE)', file: `${KANT}/OCR-D-GT-PAGE/PAGE_0020_PAGE.xml`, read: page },
  { name: 'kant1784 p. 17 (ALTO)', file: `${KANT}/OCR-D-GT-ALTO/PAGE_0017_ALTO.xml`, read: alto },
  { name: 'kant1784 p. 20 (ALTO)', file: `${KANT}/OCR-D-GT-ALTO/PAGE_0020_ALTO.xml`, read: alto },
  // Charters: the title 'd Elbora' beside the first line; two columns of lines in one region.
  { name: 'iforal Évora p. 1', file: `${IFORAL}/foral_de_evora_1218/1.xml`, read: page },
  { name: 'iforal Évora p. 2', file: `${IFORAL}/foral_de_evora_1218/2.xml`, read: page },
  { name: 'iforal Évora p. 3', file: `${IFORAL}/foral_de_evora_1218/3.xml`, read: page },
  { name: 'iforal Contrasta p. 1', file: `${IFORAL}/foral_de_contrasta_1217/1.xml`, read: page },
  { name: 'Tesseract hOCR', file: fixturePath('hocr', 'tess.hocr'), read: hocr },
  { name: 'ocropy hOCR', file: fixturePath('hocr', 'litver.html'), read: hocr },
];

function page(xml: string) {
  const doc = parsePageXml(xml);
  return { format: 'page', layout: { page: {}, regions: doc.regions, readingOrder: doc.readingOrder } };
}
function alto(xml: string) {
  return { format: 'alto', layout: { page: {}, regions: altoRegions(parseAltoXml(xml), { width: 1500, height: 2400 }) } };
}
function hocr(xml: string) {
  return { format: 'hocr', layout: { page: {}, regions: parseHocr(xml).regions } };
}

/** Every region, then every region's lines, in the opposite order. */
function reversed(layout: Layout): Layout {
  return { ...layout, regions: [...layout.regions].reverse().map((r) => ({ ...r, lines: [...r.lines].reverse() })) };
}

const regionIds = (layout: Layout) => layout.regions.map((r) => r.id);
const lineIds = (layout: Layout) => layout.regions.flatMap((r) => r.lines.map((l) => l.id));

describe('reading order of real layouts', () => {
  for (const { name, file, read } of LAYOUTS) {
    it.skipIf(!fs.existsSync(file))(`${name}: found again from the geometry alone, its regions and lines given in reverse`, () => {
      const { format, layout } = read(fs.readFileSync(file, 'utf8'));
      const result = reorderLayout(reversed(layout), format);
      const ordered = result.layout as unknown as Layout;
      expect(regionIds(ordered)).toEqual(regionIds(layout));
      expect(lineIds(ordered)).toEqual(lineIds(layout));
      // And as found: nothing to change.
      expect(reorderLayout(layout, format).lineMoves).toEqual([]);
    });
  }

  it.skipIf(!fs.existsSync(`${KANT}/OCR-D-GT-PAGE/PAGE_0017_PAGE.xml`))('kant1784 p. 17: the ReadingOrder written is the one its annotators gave', () => {
    const { layout } = page(fs.readFileSync(`${KANT}/OCR-D-GT-PAGE/PAGE_0017_PAGE.xml`, 'utf8'));
    const given = layout.readingOrder!.members.map((m) => (m.kind === 'region' ? m.regionRef : null));
    const result = reorderLayout(reversed(layout), 'page');
    const written = (result.layout.readingOrder as { members: { regionRef: string }[] }).members.map((m) => m.regionRef);
    expect(written).toEqual(given);
    expect(written).toHaveLength(11);
  });
});
