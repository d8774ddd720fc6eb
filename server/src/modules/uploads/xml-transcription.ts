import { altoRegions, type LayoutRegion } from './alto-xml.js';
import type { HocrDocument } from './hocr.js';
import type { PageRegion, ReadingOrderGroup } from './page-xml.js';
import type { XmlReading } from './xml-reader.js';

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

/**
 * A PAGE, ALTO or hOCR file read for `image` as a transcription: the file's own measures of the
 * page, else (ALTO in other units than pixels, or none) the image's.
 */
export function transcriptionOfReading(reading: XmlReading, image: { width: number; height: number }): XmlTranscription {
  if (reading.dialect === 'hocr') return hocrTranscription(reading.hocr);
  if (reading.dialect === 'alto') {
    const { alto } = reading;
    const pixels = alto.unit === 'pixel';
    return {
      format: 'alto',
      transcriber: alto.software,
      version: alto.version,
      page: {
        imageFilename: alto.fileName,
        imageWidth: pixels ? alto.pageWidth : image.width,
        imageHeight: pixels ? alto.pageHeight : image.height,
      },
      regions: altoRegions(alto, image),
    };
  }
  const { page } = reading;
  return {
    format: 'page',
    transcriber: page.creator,
    version: page.version,
    page: {
      imageFilename: page.imageFilename,
      imageWidth: page.imageWidth,
      imageHeight: page.imageHeight,
      ...(page.readingDirection !== null && { readingDirection: page.readingDirection }),
    },
    regions: page.regions,
    language: page.language,
    readingOrder: page.readingOrder,
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
