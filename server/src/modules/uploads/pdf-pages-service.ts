import type { Principal } from '../../platform/auth/principal.js';
import { notFound } from '../../platform/errors.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import { stagePdfPage } from './pdf-pages.js';
import type { PageOutcome, PdfPagesRepository, SetPdf } from './pdf-pages-repository.js';
import type { PdfSplitter } from './pdf-split.js';
import type { NewDocumentImage } from './repository.js';

export type { SetPdf };

/**
 * The pages of the PDFs kept in a set, added one at a time (the SplitPDF job): rendered in the
 * worker threads with the upload's limits, each page in its own transaction, a page the set holds
 * already (the same PDF file and page number) never added twice. Adding pages is changing the set:
 * WRITE on it, checked on every call.
 */
export class PdfPagesService {
  constructor(
    private readonly repo: PdfPagesRepository,
    private readonly access: ImageSetAccess,
    private readonly files: FileStore,
    private readonly splitter: PdfSplitter,
  ) {}

  /** The set's PDFs: all of them, or only those whose pages are still to be added. */
  async pdfsOfSet(principal: Principal | null, setId: string, options: { all: boolean }): Promise<SetPdf[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.pdfsOfSet(setId, !options.all);
  }

  /** The PDF's number of pages; refuses one that cannot be read or has more pages than allowed, as the upload does. */
  pageCount(pdf: SetPdf): Promise<number> {
    return this.splitter.pageCount(this.files.pathOf(pdf.sha256));
  }

  /** The numbers of the PDF's pages the set holds already. */
  async pagesInSet(principal: Principal | null, setId: string, pdf: SetPdf): Promise<Set<number>> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.pagesInSet(setId, pdf.fileId);
  }

  /**
   * Renders page `index` (from 0) and appends it to the set, unless the set got it meanwhile.
   * Refuses a page that cannot be rendered within the limits (400, naming the page).
   */
  async addPage(principal: Principal | null, setId: string, pdf: SetPdf, index: number): Promise<{ outcome: Exclude<PageOutcome, 'set-gone'>; image: NewDocumentImage }> {
    await this.access.requireSet(principal, setId, 'WRITE');
    const source = { id: pdf.fileId, originalName: pdf.originalName, ownerId: pdf.ownerId };
    const page = await stagePdfPage(this.splitter, this.files, this.files.pathOf(pdf.sha256), index, source);
    try {
      const outcome = await this.repo.insertPage(setId, page.file, page.image, this.files.publication([page.staged]));
      if (outcome === 'set-gone') throw notFound(`There is no image set with id ${setId}: it was deleted while its PDF pages were added.`);
      return { outcome, image: page.image };
    } finally {
      await page.staged.discard();
    }
  }

  /** Marks the PDF's pages as added, once every page has been tried. */
  async pagesDone(principal: Principal | null, setId: string, pdf: SetPdf): Promise<void> {
    await this.access.requireSet(principal, setId, 'WRITE');
    await this.repo.pagesDone(setId, pdf.fileId);
  }
}
