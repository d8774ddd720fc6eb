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

/** The newest transcription of an image, with its stored layout. */
export interface LayoutRecord {
  id: string;
  imageId: string;
  layout: unknown;
  createdAt: Date;
  /** The ground truth people gave its text lines, by line index. */
  groundTruth: Map<number, string>;
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

  /** Every transcription's layout of the given images, newest first per image. */
  async layoutsOf(imageIds: string[]): Promise<LayoutRecord[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('transcription')
      .select(['id', 'image_id', 'layout', 'created_at'])
      .select(
        sql<Record<string, string> | null>`(select jsonb_object_agg(g.line_index, g.ground_truth) from simple_text_line g
          where g.transcription_id = transcription.id and g.ground_truth is not null)`.as('ground_truth'),
      )
      .where('image_id', 'in', imageIds)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      imageId: r.image_id,
      layout: r.layout,
      createdAt: r.created_at,
      groundTruth: new Map(Object.entries(r.ground_truth ?? {}).map(([index, text]) => [Number(index), text])),
    }));
  }

  /** The drawing tool's shapes on the given images, by image (images without a drawing are absent). */
  async drawingsOf(imageIds: string[]): Promise<Map<string, { shapes: unknown; updatedAt: Date }>> {
    if (imageIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('image_drawing').select(['image_id', 'shapes', 'updated_at']).where('image_id', 'in', imageIds).execute();
    return new Map(rows.map((r) => [r.image_id, { shapes: r.shapes, updatedAt: r.updated_at }]));
  }
}
