import type { DocumentImageListQuery } from '@pim/contract';
import { type Kysely, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import { containsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleImages, visibleSets } from '../imagesets/access-repository.js';
import { type MatchCounts, setPage } from './set-page.js';

/** A document image with its owner's name and, when listed in a set, its position there. */
export interface DocumentImageRecord {
  id: string;
  label: string;
  width: number;
  height: number;
  pageNumber: number | null;
  remoteUri: string | null;
  broken: boolean;
  publish: boolean;
  eadId: string | null;
  deskewAngle: number | null;
  columnCount: number | null;
  linesCount: number | null;
  confidence: number | null;
  languageBest: string | null;
  tiled: boolean;
  owner: { id: string; name: string } | null;
  createdAt: Date;
  updatedAt: Date;
  position: number | null;
}

export interface TranscriptionRecord {
  id: string;
  imageId: string;
  format: string;
  sourceFileId: string | null;
  /** The uploaded file's name, when it was read from one. */
  sourceFileName: string | null;
  transcriber: string | null;
  language: string | null;
  version: string | null;
  analyzed: Date | null;
  params: unknown;
  status: string;
  cleanText: string;
  createdAt: Date;
}

export interface StoredFileRecord {
  id: string;
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  originalName: string;
}

export class DocumentImageRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private selectImages(db: Kysely<DB> = this.db) {
    return db
      .selectFrom('document_image as d')
      .leftJoin('pim_user as u', 'u.id', 'd.owner_id')
      .select([
        'd.id',
        'd.label',
        'd.width',
        'd.height',
        'd.page_number',
        'd.remote_uri',
        'd.broken',
        'd.publish',
        'd.ead_id',
        'd.deskew_angle',
        'd.column_count',
        'd.lines_count',
        'd.confidence',
        'd.language_best',
        'd.tiled_file_id',
        'd.owner_id',
        'u.name as owner_name',
        'd.created_at',
        'd.updated_at',
      ]);
  }

  async findById(id: string): Promise<DocumentImageRecord | undefined> {
    const row = await this.selectImages().where('d.id', '=', id).executeTakeFirst();
    return row && toRecord(row, null);
  }

  /** One page of a set's images, sorted, filtered and paged by the server, and how many match (see setPage; `counts` keeps a filter's). */
  pageOfSet(setId: string, q: DocumentImageListQuery, counts?: MatchCounts): Promise<{ rows: DocumentImageRecord[]; total: number }> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { imageIds, total } = await setPage(trx, setId, q, counts);
        if (imageIds.length === 0) return { rows: [], total };
        // The position looked up per image (the primary key of set and image): a join let the
        // planner scan the whole set's memberships for a page of 50 (10 ms at 5,000 on PGlite).
        const rows = await this.selectImages(trx)
          .select((eb) =>
            eb
              .selectFrom('image_set_image as m')
              .select('m.position')
              .whereRef('m.image_id', '=', 'd.id')
              .where('m.set_id', '=', setId)
              .as('position'),
          )
          .where('d.id', 'in', imageIds)
          .execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        return { rows: imageIds.map((id) => byId.get(id)!).map((r) => toRecord(r, r.position)), total };
      });
  }

  /** Transcriptions of the given images, newest first. */
  async transcriptionsOf(imageIds: string[]): Promise<TranscriptionRecord[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('transcription as t')
      .leftJoin('stored_file as f', 'f.id', 't.source_file_id')
      .select([
        't.id',
        't.image_id',
        't.format',
        't.source_file_id',
        'f.original_name',
        't.transcriber',
        't.language',
        't.version',
        't.analyzed',
        't.params',
        't.status',
        't.clean_text',
        't.created_at',
      ])
      .where('t.image_id', 'in', imageIds)
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      imageId: r.image_id,
      format: r.format,
      sourceFileId: r.source_file_id,
      sourceFileName: r.original_name,
      transcriber: r.transcriber,
      language: r.language,
      version: r.version,
      analyzed: r.analyzed,
      params: r.params,
      status: r.status,
      cleanText: r.clean_text,
      createdAt: r.created_at,
    }));
  }

  /** The stored layout of one transcription of the image; undefined when the image has no such transcription. */
  async layoutOf(imageId: string, transcriptionId: string): Promise<{ layout: unknown } | undefined> {
    return this.db
      .selectFrom('transcription')
      .select('layout')
      .where('id', '=', transcriptionId)
      .where('image_id', '=', imageId)
      .executeTakeFirst();
  }

  /** The live sets holding the image that `scope` may read, by name. */
  setsOfImage(imageId: string, scope: VisibilityScope): Promise<{ id: string; name: string }[]> {
    return this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image_set as s', 's.id', 'm.set_id')
      .select(['s.id', 's.name'])
      .where('m.image_id', '=', imageId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .orderBy(sql`lower(s.name)`)
      .orderBy('s.id')
      .execute();
  }

  /**
   * A page of the images `scope` may read (its own, or held by a set it may read) whose label
   * contains `filter`; with `setId`, only that set's images, in their order.
   */
  autocomplete(
    scope: VisibilityScope,
    q: { filter: string; skip: number; limit: number; setId?: string },
  ): Promise<{ id: string; label: string }[]> {
    let query = this.db.selectFrom('document_image as d').select(['d.id', 'd.label']);
    if (q.setId) {
      query = query.innerJoin('image_set_image as m', 'm.image_id', 'd.id').where('m.set_id', '=', q.setId);
    } else {
      query = query.where(visibleImages(scope, 'd'));
    }
    if (q.filter) query = query.where(containsText('d.label', q.filter));
    const ordered = q.setId
      ? query.orderBy(sql`m.position`).orderBy('d.id')
      : query.orderBy(sql`lower(d.label)`).orderBy('d.id');
    return ordered.offset(q.skip).limit(q.limit).execute();
  }

  /** The stored original of an image. */
  imageFile(imageId: string): Promise<StoredFileRecord | undefined> {
    return this.storedFiles()
      .innerJoin('document_image as d', 'd.file_id', 'f.id')
      .where('d.id', '=', imageId)
      .executeTakeFirst()
      .then((r) => r && toFile(r));
  }

  /** A stored PDF or XML file and the live sets it was uploaded into. */
  async setFile(fileId: string): Promise<{ file: StoredFileRecord; setIds: string[] } | undefined> {
    const row = await this.storedFiles().where('f.id', '=', fileId).executeTakeFirst();
    if (!row) return undefined;
    const sets = await this.db
      .selectFrom('image_set_file as l')
      .innerJoin('document_image_set as s', 's.id', 'l.set_id')
      .select('l.set_id')
      .where('l.file_id', '=', fileId)
      .where('s.deleted_at', 'is', null)
      .execute();
    return { file: toFile(row), setIds: sets.map((s) => s.set_id) };
  }

  private storedFiles() {
    return this.db
      .selectFrom('stored_file as f')
      .select(['f.id', 'f.sha256', 'f.size_bytes', 'f.media_type', 'f.original_name']);
  }
}

type ImageRow = Awaited<ReturnType<ReturnType<DocumentImageRepository['selectImages']>['executeTakeFirstOrThrow']>>;

function toRecord(r: ImageRow, position: number | null): DocumentImageRecord {
  return {
    id: r.id,
    label: r.label,
    width: r.width,
    height: r.height,
    pageNumber: r.page_number,
    remoteUri: r.remote_uri,
    broken: r.broken,
    publish: r.publish,
    eadId: r.ead_id,
    deskewAngle: r.deskew_angle,
    columnCount: r.column_count,
    linesCount: r.lines_count,
    confidence: r.confidence,
    languageBest: r.language_best,
    tiled: r.tiled_file_id !== null,
    owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    position,
  };
}

function toFile(r: { id: string; sha256: string; size_bytes: string; media_type: string; original_name: string }): StoredFileRecord {
  return { id: r.id, sha256: r.sha256, sizeBytes: Number(r.size_bytes), mediaType: r.media_type, originalName: r.original_name };
}
