import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

/** An image as the checks read it: its recorded size, its stored original and its broken mark. */
export interface ImageToCheck {
  id: string;
  label: string;
  width: number;
  height: number;
  sha256: string;
  broken: boolean;
}

export class ImageCheckRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The set's own images in their order; only those marked broken when `onlyBroken`. */
  imagesOfSet(setId: string, onlyBroken: boolean): Promise<ImageToCheck[]> {
    let query = this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height', 'f.sha256', 'd.broken'])
      .where('m.set_id', '=', setId);
    if (onlyBroken) query = query.where('d.broken', '=', true);
    return query.orderBy('m.position').orderBy('d.id').execute();
  }

  /** Sets or clears the broken mark of an image the set holds; false when it holds no such image. */
  async markBroken(setId: string, imageId: string, broken: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('document_image')
      .set({ broken, updated_at: sql<Date>`now()` })
      .where('id', '=', imageId)
      .where((eb) => eb.exists(eb.selectFrom('image_set_image').select('image_id').where('set_id', '=', setId).where('image_id', '=', imageId)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
