import type { DrawingShape } from '@pim/contract';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

/** A saved drawing: its shapes as the contract checked them when they were written. */
export interface DrawingRecord {
  imageId: string;
  shapes: unknown;
  updatedBy: string | null;
  updatedAt: Date;
}

/** Reads and writes the drawings table; only the PAGE export (downloads/repository.ts) reads it elsewhere. */
export class DrawingRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async find(imageId: string): Promise<DrawingRecord | null> {
    const row = await this.db
      .selectFrom('image_drawing')
      .select(['image_id', 'shapes', 'updated_by', 'updated_at'])
      .where('image_id', '=', imageId)
      .executeTakeFirst();
    return row ? { imageId: row.image_id, shapes: row.shapes, updatedBy: row.updated_by, updatedAt: row.updated_at } : null;
  }

  /** The image's size in pixels, which every point must lie within; null when there is no such image. */
  async imageSize(imageId: string): Promise<{ width: number; height: number } | null> {
    const row = await this.db.selectFrom('document_image').select(['width', 'height']).where('id', '=', imageId).executeTakeFirst();
    return row ?? null;
  }

  /**
   * Replaces the image's drawing. The row is made from the image's own row, so an image deleted
   * meanwhile writes nothing (null) instead of failing on the foreign key.
   */
  async save(imageId: string, shapes: DrawingShape[], userId: string | null): Promise<DrawingRecord | null> {
    const json = JSON.stringify(shapes);
    const row = await this.db
      .insertInto('image_drawing')
      .columns(['image_id', 'shapes', 'updated_by', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('document_image')
          .select([
            'id',
            sql<string>`${json}::jsonb`.as('shapes'),
            sql<string | null>`${userId}::uuid`.as('updated_by'),
            sql<Date>`now()`.as('updated_at'),
          ])
          .where('id', '=', imageId),
      )
      .onConflict((oc) =>
        oc.column('image_id').doUpdateSet((eb) => ({
          shapes: eb.ref('excluded.shapes'),
          updated_by: eb.ref('excluded.updated_by'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returning(['image_id', 'shapes', 'updated_by', 'updated_at'])
      .executeTakeFirst();
    return row ? { imageId: row.image_id, shapes: row.shapes, updatedBy: row.updated_by, updatedAt: row.updated_at } : null;
  }

  async clear(imageId: string): Promise<void> {
    await this.db.deleteFrom('image_drawing').where('image_id', '=', imageId).execute();
  }
}
