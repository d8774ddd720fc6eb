import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FileStore, StagedFile } from '../../platform/storage/file-store.js';
import type { PdfSplitter } from './pdf-split.js';
import type { NewDocumentImage, NewStoredFile } from './repository.js';

/** The PDF a page comes from, as its page images record it. */
export interface PdfSource {
  id: string;
  originalName: string;
  ownerId: string | null;
}

/** One rendered page, staged, with the rows that will record it. */
export interface StagedPdfPage {
  staged: StagedFile;
  file: NewStoredFile;
  image: NewDocumentImage;
}

/**
 * Renders page `index` (from 0) of the PDF at `pdfPath` in a thread and stages it as a JPEG, with
 * its rows: the page image is labelled '<PDF name> p. <n>', numbered n and linked to its PDF,
 * which is how a later run recognises a page already added. The upload and the SplitPDF job both
 * add pages this way. The caller discards `staged` once its rows are written (or not).
 */
export async function stagePdfPage(splitter: PdfSplitter, files: FileStore, pdfPath: string, index: number, pdf: PdfSource): Promise<StagedPdfPage> {
  const page = await splitter.renderPage(pdfPath, index);
  const label = `${baseName(pdf.originalName)} p. ${index + 1}`;
  const staged = await files.stage(Buffer.from(page.bytes.buffer, page.bytes.byteOffset, page.bytes.byteLength));
  const file: NewStoredFile = {
    id: randomUUID(),
    sha256: staged.sha256,
    sizeBytes: staged.sizeBytes,
    mediaType: 'image/jpeg',
    originalName: `${label}.jpg`,
    ownerId: pdf.ownerId,
  };
  const image: NewDocumentImage = {
    id: randomUUID(),
    fileId: file.id,
    label,
    width: page.width,
    height: page.height,
    pageNumber: index + 1,
    sourcePdfFileId: pdf.id,
    ownerId: pdf.ownerId,
  };
  return { staged, file, image };
}

/** The file name without its extension (a name that is all extension stays whole). */
export function baseName(fileName: string): string {
  const ext = path.extname(fileName);
  return (ext && ext.length < fileName.length ? fileName.slice(0, -ext.length) : fileName) || fileName;
}
