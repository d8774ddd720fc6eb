import type { LayoutRegion } from './alto-xml.js';
import type { HocrDocument } from './hocr.js';
import type { PageRegion, ReadingOrderGroup } from './page-xml.js';

/** What every XML format is stored as: PAGE's layout shape (ALTO and hOCR lines add their words). */
export interface XmlTranscription {
  format: 'page' | 'alto' | 'hocr';
  transcriber: string | null;
  version: string | null;
  page: { imageFilename: string | null; imageWidth: number | null; imageHeight: number | null };
  regions: PageRegion[] | LayoutRegion[];
  /** The transcription's language as the file names it (PAGE only so far). */
  language?: string | null;
  readingOrder?: ReadingOrderGroup | null;
}

/** A page of hOCR as a transcription: its page box measured the image it was made from. */
export function hocrTranscription(hocr: HocrDocument): XmlTranscription {
  return {
    format: 'hocr',
    transcriber: hocr.system,
    version: null,
    page: { imageFilename: hocr.imageFilename, imageWidth: hocr.pageWidth, imageHeight: hocr.pageHeight },
    regions: hocr.regions,
  };
}

/** The columns of a transcription row: its text (the lines' texts), layout and line count. */
export function transcriptionContent(t: XmlTranscription) {
  const lines = (t.regions as PageRegion[]).flatMap((r) => r.lines);
  return {
    format: t.format,
    transcriber: t.transcriber,
    version: t.version,
    language: t.language ?? null,
    cleanText: lines.map((l) => l.text).join('\n'),
    // A PAGE layout always has its readingOrder (null when the file has none): see downloads' page-source.ts.
    layout: { page: t.page, regions: t.regions, ...(t.readingOrder !== undefined && { readingOrder: t.readingOrder }) },
    linesCount: lines.length,
  };
}
