import * as mupdf from 'mupdf';
import { badRequest } from '../../platform/errors.js';

export const ENCRYPTED_PDF = 'This PDF is encrypted: remove the password and upload it again.';
export const UNREADABLE_PDF = 'This PDF cannot be read: it is damaged or not a PDF.';
export const EMPTY_PDF = 'This PDF has no pages.';

/** Pages are rendered at about 200 dpi, the longest side at most this many pixels. */
const DPI = 200;
const MAX_SIDE = 6000;
const JPEG_QUALITY = 90;

export interface RenderedPage {
  bytes: Buffer;
  width: number;
  height: number;
}

/** Opens a PDF for splitting, refusing encrypted, unreadable and empty ones (400). */
export function openPdf(bytes: Buffer): { pageCount: number; renderPage(index: number): RenderedPage } {
  let doc: mupdf.Document;
  let pageCount: number;
  try {
    doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    if (doc.needsPassword()) throw badRequest(ENCRYPTED_PDF);
    pageCount = doc.countPages();
  } catch (err) {
    if (err instanceof Error && err.message === ENCRYPTED_PDF) throw err;
    throw badRequest(UNREADABLE_PDF);
  }
  if (pageCount < 1) throw badRequest(EMPTY_PDF);
  return {
    pageCount,
    /** One page as a high-quality JPEG (pages are scans, where JPEG is a fraction of PNG's size). */
    renderPage(index: number): RenderedPage {
      try {
        const page = doc.loadPage(index);
        const [x0, y0, x1, y1] = page.getBounds();
        const longest = Math.max(x1 - x0, y1 - y0, 1);
        const scale = Math.min(DPI / 72, MAX_SIDE / longest);
        const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
        return { bytes: Buffer.from(pixmap.asJPEG(JPEG_QUALITY)), width: pixmap.getWidth(), height: pixmap.getHeight() };
      } catch {
        throw badRequest(`Page ${index + 1} of this PDF cannot be rendered: the PDF is damaged.`);
      }
    },
  };
}
