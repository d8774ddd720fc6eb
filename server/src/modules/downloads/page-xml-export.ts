import type { DrawingShape } from '@pim/contract';
import { drawnPageElements, type UniqueId } from './page-xml-drawings.js';
import { PAGE_LANGUAGES } from './page-languages.js';
import { exportLayoutOf, type ExportLine, type ExportRegion, type ExportWord } from './page-xml-layout.js';
import { readingOrderXml } from './page-xml-reading-order.js';
import { escapeAttr, escapeText, optionalAttr, validPoints } from './page-xml-text.js';

export const PAGE_2019_NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';
const PAGE_2019_XSD = `${PAGE_2019_NS}/pagecontent.xsd`;

/** What one PAGE file is made from: the image and the layout of its chosen transcription. */
export interface PageExportInput {
  imageFilename: string;
  imageWidth: number;
  imageHeight: number;
  created: Date;
  lastChange: Date;
  /** A transcription's stored layout (uploads/page-xml.ts shape), or null when there is none. */
  layout: unknown;
  /** The transcription's format: hOCR word confidences are 0..100, PAGE's conf 0..1. */
  format?: string | null;
  /** The transcription's language, written as Page@primaryLanguage when PAGE knows the name. */
  language?: string | null;
  /** Shapes drawn on the image with the drawing tool; exported after the layout's regions. */
  drawing?: DrawingShape[];
  /** Ground truth people gave the layout's lines, by line index in reading order (text lines). */
  groundTruth?: ReadonlyMap<number, string>;
}

/** The region types PAGE 2019 allows on TextRegion@type; others (e.g. 'text') are left out. */
const TEXT_TYPES = new Set([
  'paragraph', 'heading', 'caption', 'header', 'footer', 'page-number', 'drop-capital', 'credit', 'floating',
  'signature-mark', 'catch-word', 'marginalia', 'footnote', 'footnote-continued', 'endnote', 'TOC-entry', 'list-label', 'other',
]);
const NCNAME = /^[A-Za-z_][\w.-]*$/;

/**
 * A PAGE 2019 document valid against the PRImA XSD: the layout's regions, lines, words and glyphs
 * with their ids, outlines, texts and languages, and its reading order. Stored ids, points, types
 * and languages are kept when the schema accepts them; otherwise ids are made unique, unknown
 * names left out, and missing outlines fall back to the enclosing outline (or the whole page),
 * because the schema requires Coords on every region, line, word and glyph.
 */
export function pageXmlFor(input: PageExportInput): string {
  const pageBox = box(0, 0, Math.max(0, input.imageWidth - 1), Math.max(0, input.imageHeight - 1));
  const ids = new Set<string>();
  const uniqueId: UniqueId = (wanted, fallback) => {
    let id = wanted && NCNAME.test(wanted) && !ids.has(wanted) ? wanted : fallback;
    for (let n = 2; ids.has(id); n += 1) id = `${fallback}_${n}`;
    ids.add(id);
    return id;
  };
  const layout = exportLayoutOf(input.layout);
  const writer = new RegionWriter(uniqueId, input);
  const regions = layout.regions.flatMap((region, r) => writer.region(region, r, pageBox));
  const drawn = drawnPageElements(input.drawing ?? [], uniqueId, input.imageHeight);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<PcGts xmlns="${PAGE_2019_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${PAGE_2019_NS} ${PAGE_2019_XSD}">`,
    '  <Metadata>',
    '    <Creator>PIM</Creator>',
    `    <Created>${input.created.toISOString()}</Created>`,
    `    <LastChange>${input.lastChange.toISOString()}</LastChange>`,
    '  </Metadata>',
    `  <Page imageFilename="${escapeAttr(input.imageFilename)}" imageWidth="${input.imageWidth}" imageHeight="${input.imageHeight}"${languageAttr('primaryLanguage', input.language)}>`,
    ...readingOrderXml(layout.readingOrder, writer.regionIds, uniqueId),
    ...regions,
    ...drawn,
    '  </Page>',
    '</PcGts>',
    '',
  ].join('\n');
}

/** Writes the layout's regions in order, counting lines across them as the text lines do. */
class RegionWriter {
  /** Each stored region id and the id it was written under, for the reading order. */
  readonly regionIds = new Map<string, string>();
  private lineIndex = -1;
  private readonly confidenceScale: number;

  constructor(
    private readonly uniqueId: UniqueId,
    private readonly input: PageExportInput,
  ) {
    this.confidenceScale = input.format === 'hocr' ? 100 : 1;
  }

  region(region: ExportRegion, r: number, pageBox: string): string[] {
    const regionId = this.uniqueId(region.id, `r${r + 1}`);
    if (region.id !== null && !this.regionIds.has(region.id)) this.regionIds.set(region.id, regionId);
    const lineCoords = region.lines.map((l) => validPoints(l.coords));
    const regionCoords = validPoints(region.coords) ?? enclosing(lineCoords) ?? pageBox;
    const type = region.type && TEXT_TYPES.has(region.type) ? ` type="${region.type}"` : '';
    const firstLine = this.lineIndex + 1;
    const lines = region.lines.flatMap((line, l) => this.line(line, `${regionId}_l${l + 1}`, lineCoords[l] ?? regionCoords));
    // A corrected line makes the region's own recognised text out of date: it is left out then.
    const corrected = region.lines.some((_, l) => this.input.groundTruth?.has(firstLine + l));
    return [
      `    <TextRegion id="${escapeAttr(regionId)}"${type}${languageAttr('primaryLanguage', region.language)}>`,
      `      <Coords points="${regionCoords}"/>`,
      ...lines,
      ...(region.text !== null && !corrected ? [`      <TextEquiv><Unicode>${escapeText(region.text)}</Unicode></TextEquiv>`] : []),
      '    </TextRegion>',
    ];
  }

  private line(line: ExportLine, fallbackId: string, coords: string): string[] {
    const lineId = this.uniqueId(line.id, fallbackId);
    const baseline = validPoints(line.baseline);
    this.lineIndex += 1;
    return [
      `      <TextLine id="${escapeAttr(lineId)}"${languageAttr('primaryLanguage', line.language)}>`,
      `        <Coords points="${coords}"/>`,
      ...(baseline ? [`        <Baseline points="${baseline}"/>`] : []),
      ...line.words.flatMap((word, w) => this.word(word, `${lineId}_w${w + 1}`, coords)),
      ...lineTextEquivs(line.text, this.input.groundTruth?.get(this.lineIndex)),
      '      </TextLine>',
    ];
  }

  private word(word: ExportWord, fallbackId: string, lineCoords: string): string[] {
    const wordId = this.uniqueId(word.id, fallbackId);
    const coords = validPoints(word.coords) ?? lineCoords;
    const confidence = word.confidence === null ? null : word.confidence / this.confidenceScale;
    const conf = confidence !== null && confidence >= 0 && confidence <= 1 ? ` conf="${confidence}"` : '';
    return [
      `        <Word id="${escapeAttr(wordId)}"${languageAttr('language', word.language)}>`,
      `          <Coords points="${coords}"/>`,
      ...word.glyphs.flatMap((glyph, g) => [
        `          <Glyph id="${escapeAttr(this.uniqueId(glyph.id, `${wordId}_g${g + 1}`))}">`,
        `            <Coords points="${validPoints(glyph.coords) ?? coords}"/>`,
        `            <TextEquiv><Unicode>${escapeText(glyph.text)}</Unicode></TextEquiv>`,
        '          </Glyph>',
      ]),
      `          <TextEquiv${conf}><Unicode>${escapeText(word.text)}</Unicode></TextEquiv>`,
      '        </Word>',
    ];
  }
}

/** PAGE's convention: the lowest index is the main text, so ground truth is 0 and the recognised text 1. */
function lineTextEquivs(text: string, groundTruth: string | undefined): string[] {
  if (groundTruth === undefined) return [`        <TextEquiv><Unicode>${escapeText(text)}</Unicode></TextEquiv>`];
  return [
    `        <TextEquiv index="0"><Unicode>${escapeText(groundTruth)}</Unicode></TextEquiv>`,
    `        <TextEquiv index="1"><Unicode>${escapeText(text)}</Unicode></TextEquiv>`,
  ];
}

/** A language attribute when PAGE's enumeration has the name (a file that must validate can hold no other). */
function languageAttr(name: string, language: string | null | undefined): string {
  return optionalAttr(name, language && PAGE_LANGUAGES.has(language) ? language : null);
}

/** The bounding box of the given outlines, or null when there are none. */
function enclosing(outlines: (string | null)[]): string | null {
  const xy = outlines.flatMap((o) => (o ? o.split(' ').map((p) => p.split(',').map(Number) as [number, number]) : []));
  if (xy.length === 0) return null;
  const xs = xy.map((p) => p[0]);
  const ys = xy.map((p) => p[1]);
  return box(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
}

function box(x0: number, y0: number, x1: number, y1: number): string {
  return `${x0},${y0} ${x1},${y0} ${x1},${y1} ${x0},${y1}`;
}
