import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { insertLinesOf } from '../textlines/repository.js';
import type { Publication } from '../../platform/storage/file-store.js';
import { insertStoredFiles, publishWithRows, type NewStoredFile } from '../../platform/storage/stored-file-repository.js';

export type { NewStoredFile };

export interface NewDocumentImage {
  id: string;
  fileId: string;
  label: string;
  width: number;
  height: number;
  /** The page of the source PDF; null for a single image (it gets its position in the set). */
  pageNumber: number | null;
  sourcePdfFileId: string | null;
  ownerId: string | null;
  /** Where it was fetched from (a IIIF canvas), for an image that was not uploaded. */
  remoteUri?: string | null;
}

/** What one upload adds: files first, then images appended to the set in order, then set files. */
export interface UploadRows {
  setId: string;
  files: NewStoredFile[];
  images: NewDocumentImage[];
  /** `pagesPending`: a PDF kept for a SplitPDF job to add its pages. */
  setFiles: { fileId: string; kind: 'pdf' | 'xml'; pagesPending?: boolean }[];
}

export interface ImageOfSet {
  id: string;
  label: string;
  width: number;
  height: number;
}

/** A transcription made from an uploaded XML file, with that file kept in the set. */
export interface XmlImportRows {
  setId: string;
  file: NewStoredFile;
  transcription: {
    id: string;
    imageId: string;
    format: string;
    transcriber: string | null;
    language: string | null;
    version: string | null;
    cleanText: string;
    layout: unknown;
    linesCount: number;
    /** What made it, when a job did: the job type, its uuid, the model and tool version. */
    params?: Record<string, unknown>;
  };
}

export class UploadRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Publishes the upload's files and writes every row of it in one transaction: all of them or
   * none. False when the set was deleted meanwhile: then nothing is kept.
   */
  insertUpload(rows: UploadRows, files: Publication): Promise<boolean> {
    return publishWithRows(this.db, files, async (trx) => {
      if (!(await lockLiveSet(trx, rows.setId))) return false;
      await writeUpload(trx, rows);
      return true;
    });
  }

  /**
   * As insertUpload for one image fetched from elsewhere, unless the set holds an image from its
   * `remoteUri` already (checked under the set's lock, so two harvests at once store it once).
   */
  async insertRemoteImage(rows: UploadRows & { images: [NewDocumentImage & { remoteUri: string }] }, files: Publication): Promise<'added' | 'present' | 'setGone'> {
    let outcome: 'added' | 'present' | 'setGone' = 'setGone';
    await publishWithRows(this.db, files, async (trx) => {
      if (!(await lockLiveSet(trx, rows.setId))) return false;
      if (await findRemoteImage(trx, rows.setId, rows.images[0].remoteUri)) {
        outcome = 'present';
        return false;
      }
      await writeUpload(trx, rows);
      outcome = 'added';
      return true;
    });
    return outcome;
  }

  /** The id of the set's image fetched from `remoteUri`, if it holds one. */
  findRemoteImage(setId: string, remoteUri: string): Promise<string | undefined> {
    return findRemoteImage(this.db, setId, remoteUri);
  }

  /**
   * The image of the set an XML file refers to: its label is the file name without extension, or
   * it was uploaded under that exact name. When several match, the one added last wins.
   */
  findImageOfSet(setId: string, fileName: string, label: string): Promise<ImageOfSet | undefined> {
    return this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height'])
      .where('m.set_id', '=', setId)
      .where((eb) => eb.or([eb('d.label', '=', label), eb('f.original_name', '=', fileName)]))
      .orderBy('m.position', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Up to two images of the set whose label holds the number `digits` (leading zeros aside) as a
   * whole number: INPUT_0017 for PAGE_0017_ALTO. Two mean the number does not tell them apart.
   */
  findImagesNumbered(setId: string, digits: string): Promise<ImageOfSet[]> {
    const pattern = `(^|[^0-9])0*${digits.replace(/^0+(?=\d)/, '')}([^0-9]|$)`;
    return this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height'])
      .where('m.set_id', '=', setId)
      .where(sql<boolean>`d.label ~ ${pattern}`)
      .orderBy('m.position')
      .limit(2)
      .execute();
  }

  /**
   * Publishes the XML file and writes its row, its link to the set and the transcription, all or
   * none. False when the set was deleted meanwhile: then nothing is kept.
   */
  insertXmlImport(rows: XmlImportRows, files: Publication): Promise<boolean> {
    return publishWithRows(this.db, files, async (trx) => {
      if (!(await lockLiveSet(trx, rows.setId))) return false;
      await writeXmlTranscription(trx, rows);
      return true;
    });
  }
}

/**
 * Writes a transcription with its text lines inside the caller's transaction, and its file, when
 * it has one, with the set's files. The upload's XML import writes one so, and so do the jobs
 * that recognise text (their file is the one the OCR engine wrote).
 */
export async function writeXmlTranscription(trx: Kysely<DB>, rows: Omit<XmlImportRows, 'file'> & { file: NewStoredFile | null }): Promise<void> {
  const { file, transcription: t } = rows;
  if (file) await insertSetXmlFile(trx, rows.setId, file);
  await trx
    .insertInto('transcription')
    .values({ id: t.id, image_id: t.imageId, ...transcriptionContent(t, file) })
    .execute();
  await insertLinesOf(trx, t);
  await setLinesCount(trx, t.imageId, t.linesCount);
}

/** The columns of a transcription that its content decides: what a new one has and a replacement changes. */
export function transcriptionContent(t: XmlImportRows['transcription'], file: NewStoredFile | null) {
  return {
    format: t.format,
    source_file_id: file?.id ?? null,
    transcriber: t.transcriber,
    language: t.language,
    version: t.version,
    analyzed: sql<Date>`now()`,
    params: t.params === undefined ? null : JSON.stringify(t.params),
    clean_text: t.cleanText,
    layout: JSON.stringify(t.layout),
  };
}

/** Records an XML file as one of the set's files (downloadable by whoever may read the set). */
export async function insertSetXmlFile(trx: Kysely<DB>, setId: string, file: NewStoredFile): Promise<void> {
  await insertStoredFiles(trx, [file]);
  await trx.insertInto('image_set_file').values({ set_id: setId, file_id: file.id, kind: 'xml' }).execute();
}

export async function setLinesCount(trx: Kysely<DB>, imageId: string, linesCount: number): Promise<void> {
  await trx.updateTable('document_image').set({ lines_count: linesCount, updated_at: sql<Date>`now()` }).where('id', '=', imageId).execute();
}

/**
 * Writes the images and appends them to the set, in order, inside the caller's transaction, which
 * holds the set's lock (`lockLiveSet`) so concurrent uploads take positions one after the other.
 */
export async function appendImages(trx: Kysely<DB>, setId: string, images: NewDocumentImage[]): Promise<void> {
  if (images.length === 0) return;
  const last = await trx
    .selectFrom('image_set_image')
    .select(sql<number>`coalesce(max(position), -1)`.as('position'))
    .where('set_id', '=', setId)
    .executeTakeFirstOrThrow();
  const first = Number(last.position) + 1;
  await trx
    .insertInto('document_image')
    .values(
      images.map((img, i) => ({
        id: img.id,
        file_id: img.fileId,
        label: img.label,
        width: img.width,
        height: img.height,
        page_number: img.pageNumber ?? first + i + 1,
        source_pdf_file_id: img.sourcePdfFileId,
        remote_uri: img.remoteUri ?? null,
        owner_id: img.ownerId,
      })),
    )
    .execute();
  await trx
    .insertInto('image_set_image')
    .values(images.map((img, i) => ({ set_id: setId, image_id: img.id, position: first + i })))
    .execute();
}

/**
 * Locks the set's row unless it has been deleted. Holding it numbers concurrent uploads into the
 * same set one after the other, and keeps a delete from passing an upload unseen.
 */
export async function lockLiveSet(trx: Kysely<DB>, setId: string): Promise<boolean> {
  const set = await trx
    .selectFrom('document_image_set')
    .select('id')
    .where('id', '=', setId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return set !== undefined;
}

/** The rows of an upload: its files, its images appended to the set in order, its set files. */
async function writeUpload(trx: Kysely<DB>, rows: UploadRows): Promise<void> {
  await insertStoredFiles(trx, rows.files);
  await appendImages(trx, rows.setId, rows.images);
  if (rows.setFiles.length > 0) {
    await trx
      .insertInto('image_set_file')
      .values(rows.setFiles.map((f) => ({ set_id: rows.setId, file_id: f.fileId, kind: f.kind, pages_pending: f.pagesPending ?? false })))
      .execute();
  }
}

async function findRemoteImage(db: Kysely<DB>, setId: string, remoteUri: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('image_set_image as m')
    .innerJoin('document_image as d', 'd.id', 'm.image_id')
    .select('d.id')
    .where('m.set_id', '=', setId)
    .where('d.remote_uri', '=', remoteUri)
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
