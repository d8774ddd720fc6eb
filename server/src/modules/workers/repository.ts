import type { Kysely } from 'kysely';
import type { JobRow } from '../../jobs/queue.js';
import type { DB } from '../../platform/db/schema.js';

/** An image of a job's set as a worker downloads it: its stored original. */
export interface WorkerImageFile {
  id: string;
  label: string;
  width: number;
  height: number;
  sha256: string;
  mediaType: string;
  sizeBytes: number;
  originalName: string;
}

/** The SQL of the worker calls that the queue does not hold: a job by uuid, an image of its set. */
export class WorkerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  job(uuid: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('job').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The image when the set holds it (directly, as the claim lists them). */
  async imageOfSet(setId: string, imageId: string): Promise<WorkerImageFile | undefined> {
    const row = await this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height', 'f.sha256', 'f.media_type', 'f.size_bytes', 'f.original_name'])
      .where('m.set_id', '=', setId)
      .where('d.id', '=', imageId)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        label: row.label,
        width: row.width,
        height: row.height,
        sha256: row.sha256,
        mediaType: row.media_type,
        sizeBytes: Number(row.size_bytes),
        originalName: row.original_name,
      }
    );
  }
}
