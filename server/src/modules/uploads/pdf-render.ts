// Runs in the worker threads (see pdf-split.ts): mupdf's WASM and the PDF it opens live there.
import fs from 'node:fs';
import * as mupdf from 'mupdf';
import { badRequest } from '../../platform/errors.js';
import { DAMAGED_PDF, EMPTY_PDF, ENCRYPTED_PDF, type PdfLimits, type RenderedPage, UNREADABLE_PDF } from './pdf-split.js';

/** Pages are rendered at about 200 dpi, the longest side at most this many pixels. */
const DPI = 200;
const MAX_SIDE = 6000;
const JPEG_QUALITY = 90;
/** A complete PDF ends with %%EOF within its last bytes (some writers add a little after it). */
const TAIL_BYTES = 1024;

// mupdf reports every repair of a damaged file on stderr; the refusal says what matters.
mupdf.setLog({ error: () => undefined, warning: () => undefined });

/** The PDF this thread opened last: the pages of one upload come one task after another. */
let opened: { file: string; doc: mupdf.Document } | undefined;

/** Opens the staged PDF and counts its pages, refusing encrypted, damaged and empty ones (400). */
export function countPdfPages(file: string): number {
  const doc = open(file);
  if (doc.needsPassword()) throw badRequest(ENCRYPTED_PDF);
  let pages: number;
  try {
    pages = doc.countPages();
  } catch {
    throw badRequest(UNREADABLE_PDF);
  }
  if (pages > 0) return pages;
  // mupdf rebuilds a cut-off file from the objects it finds, which may be no page at all.
  const repaired = doc instanceof mupdf.PDFDocument && doc.wasRepaired();
  throw badRequest(repaired || !endsLikeAPdf(file) ? DAMAGED_PDF : EMPTY_PDF);
}

/**
 * Page `index` as a JPEG at about 200 dpi, at most `maxPagePixels`. A page holding an image over
 * `maxImagePixels` is refused before anything is decoded: the render scale limits the page's
 * pixmap, but not what decoding the image itself takes.
 */
export function renderPdfPage(file: string, index: number, limits: Pick<PdfLimits, 'maxPagePixels' | 'maxImagePixels'>): RenderedPage {
  const pageNumber = index + 1;
  const cannotRender = () => badRequest(`Page ${pageNumber} of this PDF cannot be rendered: the PDF is damaged.`);
  let page: mupdf.Page | undefined;
  let list: mupdf.DisplayList | undefined;
  let pixmap: mupdf.Pixmap | undefined;
  try {
    try {
      page = open(file).loadPage(index);
      list = page.toDisplayList(true);
    } catch {
      throw cannotRender();
    }
    const tooLarge = largestImageOver(list, limits.maxImagePixels);
    if (tooLarge) {
      throw badRequest(
        `Page ${pageNumber} of this PDF holds an image of ${tooLarge.width.toLocaleString('en')} x ${tooLarge.height.toLocaleString('en')} pixels; ` +
          `the limit is ${limits.maxImagePixels.toLocaleString('en')} pixels.`,
      );
    }
    const scale = scaleFor(page.getBounds(), limits.maxPagePixels);
    try {
      pixmap = list.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
      // JPEG: pages are scans, where it is a fraction of PNG's size. A copy out of the WASM memory,
      // so it moves to the main thread without another.
      return { bytes: pixmap.asJPEG(JPEG_QUALITY), width: pixmap.getWidth(), height: pixmap.getHeight() };
    } catch (err) {
      if (err instanceof Error && /malloc|out of memory/i.test(err.message)) {
        throw badRequest(`Page ${pageNumber} of this PDF needs more memory than the server allows for one page.`);
      }
      throw cannotRender();
    }
  } finally {
    // WASM memory is not collected with the JavaScript heap: give it back now.
    pixmap?.destroy();
    list?.destroy();
    page?.destroy();
  }
}

/** The scale from PDF points to pixels: 200 dpi, unless the page's longest side or its pixels must be fewer. */
function scaleFor([x0, y0, x1, y1]: mupdf.Rect, maxPixels: number): number {
  const width = Math.max(x1 - x0, 1);
  const height = Math.max(y1 - y0, 1);
  let scale = Math.min(DPI / 72, MAX_SIDE / Math.max(width, height), Math.sqrt(maxPixels / (width * height)));
  // mupdf rounds the pixmap's edges outwards: shrink until the rounded size fits too.
  while (scale > 0 && Math.ceil(width * scale) * Math.ceil(height * scale) > maxPixels) scale *= 0.999;
  return scale;
}

/** The first image the page draws (or masks with) that has more than `maxPixels`, found without decoding any. */
function largestImageOver(list: mupdf.DisplayList, maxPixels: number): { width: number; height: number } | undefined {
  let found: { width: number; height: number } | undefined;
  // Throwing inside mupdf's callbacks would unwind through its C frames: note it and throw after.
  const check = (image: mupdf.Image) => {
    for (let i: mupdf.Image | null = image; i && !found; i = i.getMask()) {
      if (i.getWidth() * i.getHeight() > maxPixels) found = { width: i.getWidth(), height: i.getHeight() };
    }
  };
  const device = new mupdf.Device({ fillImage: check, fillImageMask: check, clipImageMask: check });
  try {
    list.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return found;
}

/** The document of `file`, opened once per thread and upload; any other one opened before is closed. */
function open(file: string): mupdf.Document {
  if (opened?.file === file) return opened.doc;
  opened?.doc.destroy();
  opened = undefined;
  let doc: mupdf.Document;
  try {
    doc = mupdf.Document.openDocument(new mupdf.Stream(fileReader(file)), 'application/pdf');
  } catch {
    throw badRequest(UNREADABLE_PDF);
  }
  opened = { file, doc };
  return doc;
}

/**
 * mupdf reads the staged file in small pieces as it needs them, never the whole file at once. Each
 * read opens the file anew: no descriptor is left open when a thread is stopped mid-task.
 */
function fileReader(file: string) {
  return {
    fileSize: () => fs.statSync(file).size,
    read(memory: Uint8Array, offset: number, length: number, position: number): number {
      const fd = fs.openSync(file, 'r');
      try {
        return fs.readSync(fd, memory, offset, length, position);
      } finally {
        fs.closeSync(fd);
      }
    },
    close: () => undefined,
  };
}

/** Whether the file ends with %%EOF, as a complete PDF does. */
function endsLikeAPdf(file: string): boolean {
  const size = fs.statSync(file).size;
  const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    fs.closeSync(fd);
  }
  return tail.includes('%%EOF');
}
