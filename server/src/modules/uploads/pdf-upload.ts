import type { UploadResult } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import type { FileStore, StagedFile } from '../../platform/storage/file-store.js';
import { stagePdfPage } from './pdf-pages.js';
import type { PdfSplitter } from './pdf-split.js';
import type { NewDocumentImage, NewStoredFile, UploadRepository } from './repository.js';
import type { UploadHooks, UploadJobs, UploadLimits } from './service.js';
import { result, setGone } from './upload-result.js';

/**
 * A PDF upload: its pages rendered one by one in the worker threads and written with the PDF in
 * one transaction, or, with a job queue and more than `pdfPagesInRequest` pages, the PDF kept and
 * its pages left to a SplitPDF job, so the request answers at once.
 */
export class PdfUpload {
  constructor(
    private readonly repo: UploadRepository,
    private readonly files: FileStore,
    private readonly splitter: PdfSplitter,
    private readonly hooks: UploadHooks,
    private readonly limits: UploadLimits,
    /** What the upload does with the images it added (their pyramids). */
    private readonly imagesAdded: (caller: Principal, setId: string, images: NewDocumentImage[]) => Promise<void>,
  ) {}

  async add(caller: Principal, setId: string, pdf: NewStoredFile, staged: StagedFile): Promise<UploadResult> {
    const pageCount = await this.splitter.pageCount(staged.path);
    if (this.hooks.jobs && pageCount > this.limits.pdfPagesInRequest) return this.addForJob(this.hooks.jobs, caller, setId, pdf, staged, pageCount);
    const pages: StagedFile[] = [];
    try {
      const { files, images } = await this.renderPages(staged.path, pageCount, pdf, pages);
      const rows = { setId, files, images, setFiles: [{ fileId: pdf.id, kind: 'pdf' as const }] };
      if (!(await this.repo.insertUpload(rows, this.files.publication([staged, ...pages])))) throw setGone(setId);
      await this.imagesAdded(caller, setId, images);
      const count = images.length === 1 ? '1 page was' : `${images.length} pages were`;
      return result('pdf', pdf.originalName, images, `${pdf.originalName}: ${count} added to the set.`);
    } finally {
      await Promise.all(pages.map((p) => p.discard()));
    }
  }

  /**
   * Keeps a long PDF in the set with its pages still to add, and queues the SplitPDF job that adds
   * them (with progress), so the request answers at once. Should queueing fail, the PDF is in the
   * set all the same (an error would have the user upload it twice): the answer says to run SplitPDF.
   */
  private async addForJob(
    jobs: UploadJobs,
    caller: Principal,
    setId: string,
    pdf: NewStoredFile,
    staged: StagedFile,
    pageCount: number,
  ): Promise<UploadResult> {
    const rows = { setId, files: [pdf], images: [], setFiles: [{ fileId: pdf.id, kind: 'pdf' as const, pagesPending: true }] };
    if (!(await this.repo.insertUpload(rows, this.files.publication([staged])))) throw setGone(setId);
    let message: string;
    try {
      const job = await jobs.queue('SplitPDF', setId, caller);
      message = `${pdf.originalName}: ${pageCount} pages will be added by job #${job.id}.`;
    } catch (err) {
      this.hooks.onBackgroundError?.(err, `queueing the pages of ${pdf.originalName} in set ${setId} failed`);
      message = `${pdf.originalName} was kept, but its ${pageCount} pages could not be queued to be added: run a SplitPDF job on this set.`;
    }
    return result('pdf', pdf.originalName, [], message);
  }

  /**
   * Renders each page in a thread and stages it as a JPEG into `pages`, one at a time, so only one
   * rendered page is in memory and the upload holds one thread, leaving the others to other users.
   */
  private async renderPages(
    pdfPath: string,
    pageCount: number,
    pdf: NewStoredFile,
    pages: StagedFile[],
  ): Promise<{ files: NewStoredFile[]; images: NewDocumentImage[] }> {
    const files: NewStoredFile[] = [pdf];
    const images: NewDocumentImage[] = [];
    for (let index = 0; index < pageCount; index += 1) {
      const page = await stagePdfPage(this.splitter, this.files, pdfPath, index, pdf);
      pages.push(page.staged);
      files.push(page.file);
      images.push(page.image);
    }
    return { files, images };
  }
}
