import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { Publication } from '../../platform/storage/file-store.js';
import { insertStoredFiles, publishWithRows } from '../../platform/storage/stored-file-repository.js';
import { appendImages, lockLiveSet, type NewDocumentImage, type NewStoredFile } from './repository.js';

/** A PDF uploaded into a set, as the SplitPDF job reads it. */
export interface SetPdf {
  fileId: string;
  sha256: string;
  originalName: string;
  ownerId: string | null;
  /** Its pages are still to be added by a job. */
  pagesPending: boolean;
}

export type PageOutcome = 'added' | 'present' | 'set-gone';

export class PdfPagesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The set's PDFs in the order they were uploaded; only those with pages pending when `onlyPending`. */
  pdfsOfSet(setId: string, onlyPending: boolean): Promise<SetPdf[]> {
    let query = this.db
      .selectFrom('image_set_file as l')
      .innerJoin('stored_file as f', 'f.id', 'l.file_id')
      .select(['f.id as fileId', 'f.sha256', 'f.original_name as originalName', 'f.owner_id as ownerId', 'l.pages_pending as pagesPending'])
      .where('l.set_id', '=', setId)
      .where('l.kind', '=', 'pdf');
    if (onlyPending) query = query.where('l.pages_pending', '=', true);
    return query.orderBy('f.created_at').orderBy('f.id').execute();
  }

  /** The numbers of the PDF's pages the set holds. */
  async pagesInSet(setId: string, pdfFileId: string): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('document_image as d')
      .innerJoin('image_set_image as m', 'm.image_id', 'd.id')
      .select('d.page_number')
      .where('d.source_pdf_file_id', '=', pdfFileId)
      .where('m.set_id', '=', setId)
      .execute();
    return new Set(rows.flatMap((r) => (r.page_number === null ? [] : [r.page_number])));
  }

  /**
   * Publishes one page image and appends it to the set, unless the set holds that page of that PDF
   * already (checked under the set's lock, so two runs never add it twice): then nothing is kept.
   */
  async insertPage(setId: string, file: NewStoredFile, image: NewDocumentImage, files: Publication): Promise<PageOutcome> {
    let outcome: PageOutcome = 'set-gone';
    await publishWithRows(this.db, files, async (trx) => {
      if (!(await lockLiveSet(trx, setId))) return false;
      const present = await trx
        .selectFrom('document_image as d')
        .innerJoin('image_set_image as m', 'm.image_id', 'd.id')
        .select('d.id')
        .where('d.source_pdf_file_id', '=', image.sourcePdfFileId)
        .where('d.page_number', '=', image.pageNumber)
        .where('m.set_id', '=', setId)
        .executeTakeFirst();
      outcome = present ? 'present' : 'added';
      if (present) return false;
      await insertStoredFiles(trx, [file]);
      await appendImages(trx, setId, [image]);
      return true;
    });
    return outcome;
  }

  /** Marks the PDF's pages as added: a SplitPDF job without allData passes it by. */
  async pagesDone(setId: string, pdfFileId: string): Promise<void> {
    await this.db.updateTable('image_set_file').set({ pages_pending: false }).where('set_id', '=', setId).where('file_id', '=', pdfFileId).execute();
  }
}
