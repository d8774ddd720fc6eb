import type { PageDocument } from '../uploads/page-xml.js';
import type { ExportedLayoutRecord } from './repository.js';

/** What the PAGE export writes of a transcription: its layout and language. */
export interface ExportSource {
  layout: unknown;
  language: string | null;
}

/**
 * The layout to export for a transcription. PAGE imports stored before words, glyphs and the
 * reading order were kept have no `readingOrder` in their layout (every later PAGE layout has one,
 * null when the file had none): when their uploaded file is still in the store, it is read again,
 * so they go out with what the file holds. The lines of the file read now must be those stored
 * (same texts in the same order), because ground truth is kept by line index; if they are not, or
 * the file cannot be read, the stored layout is exported as it is.
 */
export async function exportSourceOf(
  record: ExportedLayoutRecord,
  readPage: (sha256: string) => Promise<PageDocument>,
): Promise<ExportSource> {
  const stored = { layout: record.layout, language: record.language };
  if (record.format !== 'page' || record.sourceFileSha256 === null || !isObject(record.layout) || 'readingOrder' in record.layout) {
    return stored;
  }
  try {
    const doc = await readPage(record.sourceFileSha256);
    const layout = { ...record.layout, regions: doc.regions, readingOrder: doc.readingOrder };
    const same = JSON.stringify(lineTexts(layout)) === JSON.stringify(lineTexts(record.layout));
    return same ? { layout, language: record.language ?? doc.language } : stored;
  } catch {
    return stored;
  }
}

function lineTexts(layout: Record<string, unknown>): unknown[] {
  const regions = Array.isArray(layout.regions) ? layout.regions.filter(isObject) : [];
  return regions.flatMap((r) => (Array.isArray(r.lines) ? r.lines.filter(isObject) : [])).map((l) => l.text);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
