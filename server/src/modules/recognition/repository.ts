import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { Publication } from '../../platform/storage/file-store.js';
import { type NewStoredFile, publishWithRows, removeUnreferenced } from '../../platform/storage/stored-file-repository.js';
import { carryGroundTruth, correctedLinesOf, insertLinesOf } from '../textlines/repository.js';
import { insertSetXmlFile, lockLiveSet, setLinesCount, transcriptionContent, writeXmlTranscription, type XmlImportRows } from '../uploads/repository.js';

/**
 * What marks the transcriptions a job made: pairs its `params` hold, e.g. `{ job: 'Tesseract4Hocr' }`,
 * or for a redo of a PAGE layout `{ job: 'RedoTesseract4ExistingPageXML', source: <its id> }`.
 */
export type JobMark = Record<string, string>;

/** A job's transcription of an image: which run made it, with which model. */
export interface MadeTranscription {
  transcriptionId: string;
  jobUuid: string | null;
  /** The model it was read with: an uploaded model's uuid, else the language. */
  model: string | null;
}

/** An image of a set to recognise: its file, and what the job made of it before. */
export interface RecognitionPage {
  id: string;
  label: string;
  width: number;
  height: number;
  /** The page of the PDF it was split from; null for an image uploaded as one. */
  pageNumber: number | null;
  file: { sha256: string; originalName: string };
  made: MadeTranscription | null;
}

/** A PAGE transcription of an image, to read its lines again. */
export interface PageSource {
  id: string;
  transcriber: string | null;
  language: string | null;
  sourceFileName: string | null;
}

/** A transcription a job made, as the upload's XML import writes one, and what it replaces. */
export interface JobTranscriptionRows extends Omit<XmlImportRows, 'file'> {
  file: NewStoredFile | null;
}

/**
 * stored: a new transcription; replaced: the job's earlier one of the image was replaced (same id);
 * kept: there was one and it is kept; gone: the set was deleted or the image left it meanwhile.
 */
export type StoreOutcome = { outcome: 'stored' | 'replaced'; transcriptionId: string; groundTruthKept: number; groundTruthDropped: number } | { outcome: 'kept' | 'gone' };

const marked = (alias: string, mark: JobMark): Expression<SqlBool> =>
  sql<SqlBool>`coalesce(${sql.ref(`${alias}.params`)}, '{}'::jsonb) @> ${JSON.stringify(mark)}::jsonb`;

/** The SQL of the recognition jobs: the pages of a set with what was made of them, and storing what they make. */
export class RecognitionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private pagesQuery(setId: string) {
    return this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height', 'd.page_number', 'f.sha256', 'f.original_name'])
      .where('m.set_id', '=', setId)
      .orderBy('m.position')
      .orderBy('d.id');
  }

  /** The set's own images in its order, each with the newest transcription carrying the mark. */
  async pagesOfSet(setId: string, mark: JobMark): Promise<RecognitionPage[]> {
    const rows = await this.pagesQuery(setId)
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('transcription as t')
            .select(['t.id as made_id', sql<string | null>`t.params->>'jobUuid'`.as('made_job'), sql<string | null>`t.params->>'model'`.as('made_model')])
            .whereRef('t.image_id', '=', 'd.id')
            .where(marked('t', mark))
            .orderBy('t.created_at', 'desc')
            .limit(1)
            .as('made'),
        (join) => join.onTrue(),
      )
      .select(['made.made_id', 'made.made_job', 'made.made_model'])
      .execute();
    return rows.map((r) => ({ ...pageOf(r), made: madeOf(r) }));
  }

  /**
   * The set's own images that have a PAGE transcription not made by `job`, in the set's order,
   * each with the newest such (the source to read again) and the newest that `job` made of it.
   */
  async pageSourcesOfSet(setId: string, job: string): Promise<(RecognitionPage & { source: PageSource })[]> {
    const rows = await this.pagesQuery(setId)
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('transcription as t')
            .leftJoin('stored_file as sf', 'sf.id', 't.source_file_id')
            .select(['t.id as source_id', 't.transcriber', 't.language', 'sf.original_name as source_name'])
            .whereRef('t.image_id', '=', 'd.id')
            .where('t.format', '=', 'page')
            .where((w) => w.not(marked('t', { job })))
            .orderBy('t.created_at', 'desc')
            .orderBy('t.id')
            .limit(1)
            .as('src'),
        (join) => join.onTrue(),
      )
      .select(['src.source_id', 'src.transcriber', 'src.language', 'src.source_name'])
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('transcription as t')
            .select(['t.id as made_id', sql<string | null>`t.params->>'jobUuid'`.as('made_job'), sql<string | null>`t.params->>'model'`.as('made_model')])
            .whereRef('t.image_id', '=', 'd.id')
            .where(sql<SqlBool>`t.params @> jsonb_build_object('job', ${job}::text, 'source', src.source_id::text)`)
            .orderBy('t.created_at', 'desc')
            .limit(1)
            .as('made'),
        (join) => join.onTrue(),
      )
      .select(['made.made_id', 'made.made_job', 'made.made_model'])
      .execute();
    return rows.map((r) => ({
      ...pageOf(r),
      made: madeOf(r),
      source: { id: r.source_id, transcriber: r.transcriber, language: r.language, sourceFileName: r.source_name },
    }));
  }

  async layoutOf(transcriptionId: string): Promise<unknown> {
    const row = await this.db.selectFrom('transcription').select('layout').where('id', '=', transcriptionId).executeTakeFirst();
    return row?.layout;
  }

  /**
   * Stores a transcription a job made, under the set's and the image's row locks, so two runs
   * never both store one: when the image has a transcription with the mark already, `keep` keeps
   * it and `replace` writes the new one over it (same id, its text lines made again, the ground
   * truth people gave them carried to the new lines in the same place), its file going with it.
   */
  async store(rows: JobTranscriptionRows, files: Publication, mark: JobMark, existing: 'keep' | 'replace'): Promise<StoreOutcome> {
    let outcome: StoreOutcome = { outcome: 'gone' };
    let oldFiles: string[] = [];
    await publishWithRows(this.db, files, async (trx) => {
      const t = rows.transcription;
      if (!(await lockLiveSet(trx, rows.setId)) || !(await lockImageInSet(trx, rows.setId, t.imageId))) return false;
      const previous = await trx
        .selectFrom('transcription as t')
        .leftJoin('stored_file as f', 'f.id', 't.source_file_id')
        .select(['t.id', 't.source_file_id', 'f.sha256'])
        .where('t.image_id', '=', t.imageId)
        .where(marked('t', mark))
        .orderBy('t.created_at', 'desc')
        .execute();
      if (previous.length > 0 && existing === 'keep') {
        outcome = { outcome: 'kept' };
        return false;
      }
      if (previous.length === 0) {
        await writeXmlTranscription(trx, rows);
        outcome = { outcome: 'stored', transcriptionId: t.id, groundTruthKept: 0, groundTruthDropped: 0 };
        return true;
      }
      const target = previous[0]!.id;
      const carried = await replaceTranscription(trx, target, rows);
      // Only a race of older versions could have left more than one: the newest stands for them all.
      if (previous.length > 1) await trx.deleteFrom('transcription').where('id', 'in', previous.slice(1).map((p) => p.id)).execute();
      const fileIds = previous.flatMap((p) => (p.source_file_id ? [p.source_file_id] : []));
      if (fileIds.length > 0) {
        await trx.deleteFrom('image_set_file').where('file_id', 'in', fileIds).execute();
        await trx.deleteFrom('stored_file').where('id', 'in', fileIds).execute();
      }
      oldFiles = previous.flatMap((p) => (p.sha256 ? [p.sha256] : []));
      outcome = { outcome: 'replaced', transcriptionId: target, ...carried };
      return true;
    });
    // The replaced file's bytes, unless another row names the same ones (`pim files gc` takes what a crash leaves).
    if (oldFiles.length > 0) await removeUnreferenced(this.db, oldFiles, files.remove).catch(() => undefined);
    return outcome;
  }
}

/** Locks the image's row while it is in the set: false when it left the set or is gone. */
async function lockImageInSet(trx: Kysely<DB>, setId: string, imageId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('document_image as d')
    .innerJoin('image_set_image as m', 'm.image_id', 'd.id')
    .select('d.id')
    .where('m.set_id', '=', setId)
    .where('d.id', '=', imageId)
    .forUpdate('d')
    .executeTakeFirst();
  return row !== undefined;
}

/** Writes the new transcription into the row `id`, its lines made anew; answers the ground truth carried over. */
async function replaceTranscription(trx: Kysely<DB>, id: string, rows: JobTranscriptionRows) {
  const t = rows.transcription;
  const corrected = await correctedLinesOf(trx, id);
  if (rows.file) await insertSetXmlFile(trx, rows.setId, rows.file);
  await trx
    .updateTable('transcription')
    .set(transcriptionContent(t, rows.file))
    .where('id', '=', id)
    .execute();
  await trx.deleteFrom('simple_text_line').where('transcription_id', '=', id).execute();
  const lines = await insertLinesOf(trx, { ...t, id });
  await setLinesCount(trx, t.imageId, t.linesCount);
  return carryGroundTruth(trx, id, corrected, lines);
}

function pageOf(r: { id: string; label: string; width: number; height: number; page_number: number | null; sha256: string; original_name: string }) {
  return { id: r.id, label: r.label, width: r.width, height: r.height, pageNumber: r.page_number, file: { sha256: r.sha256, originalName: r.original_name } };
}

function madeOf(r: { made_id: string | null; made_job: string | null; made_model: string | null }): MadeTranscription | null {
  return r.made_id ? { transcriptionId: r.made_id, jobUuid: r.made_job, model: r.made_model } : null;
}
