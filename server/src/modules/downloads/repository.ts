import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

/** One image of a set with what the downloads need: its place, size and original file. */
export interface DownloadImageRecord {
  id: string;
  label: string;
  width: number;
  height: number;
  position: number;
  createdAt: Date;
  updatedAt: Date;
  file: { sha256: string; mediaType: string; originalName: string };
}

/** A transcription of an image, with its stored layout. */
export interface LayoutRecord {
  id: string;
  imageId: string;
  layout: unknown;
  createdAt: Date;
  /** The ground truth people gave its text lines, by line index. */
  groundTruth: Map<number, string>;
}

/** The transcription a PAGE export writes, with what it was made from. */
export interface ExportedLayoutRecord extends LayoutRecord {
  format: string;
  language: string | null;
  /** The uploaded file it was imported from, while the store keeps it. */
  sourceFileSha256: string | null;
}

/** The ground truth of a transcription's lines as one JSON object, line index to text. */
const groundTruthOf = (transcription: string) =>
  sql<Record<string, string> | null>`(select jsonb_object_agg(g.line_index, g.ground_truth) from simple_text_line g
    where g.transcription_id = ${sql.ref(`${transcription}.id`)} and g.ground_truth is not null)`;

function groundTruthMap(rows: Record<string, string> | null): Map<number, string> {
  return new Map(Object.entries(rows ?? {}).map(([index, text]) => [Number(index), text]));
}

export class DownloadRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The set's direct images after `after` (position, then id: positions may repeat), in that
   * order, at most `limit`. Walking the (set_id, position) index keeps each batch cheap however
   * large the set is.
   */
  async imagesAfter(
    setId: string,
    after: { position: number; id: string } | null,
    limit: number,
  ): Promise<DownloadImageRecord[]> {
    const rows = await this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select([
        'd.id',
        'd.label',
        'd.width',
        'd.height',
        'm.position',
        'd.created_at',
        'd.updated_at',
        'f.sha256',
        'f.media_type',
        'f.original_name',
      ])
      .where('m.set_id', '=', setId)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('m.position', '>', after!.position),
            eb.and([eb('m.position', '=', after!.position), eb('d.id', '>', after!.id)]),
          ]),
        ),
      )
      .orderBy('m.position')
      .orderBy('d.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      width: r.width,
      height: r.height,
      position: r.position,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      file: { sha256: r.sha256, mediaType: r.media_type, originalName: r.original_name },
    }));
  }

  async countImages(setId: string): Promise<number> {
    const row = await this.db
      .selectFrom('image_set_image')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('set_id', '=', setId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every transcription's layout of the given images, newest first per image. */
  async layoutsOf(imageIds: string[]): Promise<LayoutRecord[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('transcription')
      .select(['id', 'image_id', 'layout', 'created_at'])
      .select(groundTruthOf('transcription').as('ground_truth'))
      .where('image_id', 'in', imageIds)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      imageId: r.image_id,
      layout: r.layout,
      createdAt: r.created_at,
      groundTruth: groundTruthMap(r.ground_truth),
    }));
  }

  /**
   * For each of the given images that has transcriptions, the one its PAGE export writes: the
   * newest imported from PAGE, else the newest of any format.
   */
  async exportedLayoutsOf(imageIds: string[]): Promise<ExportedLayoutRecord[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('transcription as t')
      .leftJoin('stored_file as f', 'f.id', 't.source_file_id')
      .distinctOn('t.image_id')
      .select(['t.id', 't.image_id', 't.layout', 't.created_at', 't.format', 't.language', 'f.sha256'])
      .select(groundTruthOf('t').as('ground_truth'))
      .where('t.image_id', 'in', imageIds)
      .orderBy('t.image_id')
      .orderBy(sql`t.format = 'page'`, 'desc')
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      imageId: r.image_id,
      layout: r.layout,
      createdAt: r.created_at,
      groundTruth: groundTruthMap(r.ground_truth),
      format: r.format,
      language: r.language,
      sourceFileSha256: r.sha256,
    }));
  }

  /** The drawing tool's shapes on the given images, by image (images without a drawing are absent). */
  async drawingsOf(imageIds: string[]): Promise<Map<string, { shapes: unknown; updatedAt: Date }>> {
    if (imageIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('image_drawing').select(['image_id', 'shapes', 'updated_at']).where('image_id', 'in', imageIds).execute();
    return new Map(rows.map((r) => [r.image_id, { shapes: r.shapes, updatedAt: r.updated_at }]));
  }
}
