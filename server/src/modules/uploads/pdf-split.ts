import { badRequest, tooLarge } from '../../platform/errors.js';
import { ThreadOutOfMemory, ThreadTimeout, type WorkerPool } from '../../platform/threads/worker-pool.js';

export const ENCRYPTED_PDF = 'This PDF is encrypted: remove the password and upload it again.';
export const UNREADABLE_PDF = 'This PDF cannot be read: it is damaged or not a PDF.';
export const DAMAGED_PDF = 'This PDF is damaged: no page can be read from it (it may have been cut off). Upload the complete file again.';
export const EMPTY_PDF = 'This PDF has no pages.';

/** What splitting one PDF may cost. */
export interface PdfLimits {
  /** Most pages of one PDF; a longer one is refused (413) before any page is rendered. */
  maxPages: number;
  /** Most pixels of one rendered page: a larger page is rendered at a lower resolution. */
  maxPagePixels: number;
  /** Most pixels of one image a page holds: decoding a larger one is refused (400) before it starts. */
  maxImagePixels: number;
  /** How long opening the PDF, or rendering one page, may take in its thread. */
  pageTimeoutMs: number;
}

/** One page as a JPEG, with its size in pixels. */
export interface RenderedPage {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** The thread side: mupdf is loaded in the worker threads only. */
const RENDERER = new URL('./pdf-render.js', import.meta.url);

/**
 * Splits a staged PDF into page images in the worker threads, one task per page, so the event
 * loop keeps answering meanwhile and each page has its own time limit. The threads read the
 * staged file by its path; only the rendered JPEGs come back.
 */
export class PdfSplitter {
  constructor(
    private readonly threads: WorkerPool,
    readonly limits: PdfLimits,
    /** The module whose `countPdfPages` and `renderPdfPage` run in the threads (tests wrap it). */
    private readonly renderer: URL = RENDERER,
  ) {}

  /** The number of pages; refuses an encrypted, damaged or empty PDF (400) and one over the page limit (413). */
  async pageCount(file: string): Promise<number> {
    const count = await this.run<number>('countPdfPages', [file], 'This PDF could not be opened', 'This PDF');
    if (count > this.limits.maxPages) {
      throw tooLarge(
        `This PDF has ${count.toLocaleString('en')} pages; the limit is ${this.limits.maxPages.toLocaleString('en')} pages per upload. Split it into smaller PDFs.`,
      );
    }
    return count;
  }

  /** Page `index` (from 0) as a JPEG; refuses a page that cannot be rendered within the limits (400). */
  renderPage(file: string, index: number): Promise<RenderedPage> {
    const { maxPagePixels, maxImagePixels } = this.limits;
    const page = `Page ${index + 1} of this PDF`;
    return this.run<RenderedPage>('renderPdfPage', [file, index, { maxPagePixels, maxImagePixels }], `${page} could not be rendered`, page);
  }

  /** Runs one step in a thread; a step stopped for its time or memory is refused, saying which it was. */
  private async run<T>(fn: string, args: unknown[], failed: string, subject: string): Promise<T> {
    try {
      return await this.threads.run<T>({ module: this.renderer, fn, args, timeoutMs: this.limits.pageTimeoutMs });
    } catch (err) {
      if (err instanceof ThreadTimeout) throw badRequest(`${failed} within the limit of ${formatSeconds(this.limits.pageTimeoutMs)}.`);
      if (err instanceof ThreadOutOfMemory) throw badRequest(`${subject} needs more memory than the server allows for one page.`);
      throw err;
    }
  }
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
