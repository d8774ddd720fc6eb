import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { renumberLinesOf } from '../textlines/repository.js';
import type { ReorderedLayout } from './layout-order.js';

/** The formats whose layouts have regions and lines with outlines: what can be put in reading order. */
export const LAYOUT_FORMATS = ['page', 'alto', 'hocr'] as const;

/** An image of a set with its transcriptions that have a layout, oldest first. */
export interface ImageToOrder {
  id: string;
  label: string;
  transcriptions: { id: string; format: string }[];
}

export type ReorderOutcome = 'changed' | 'unchanged' | 'gone';

export class ReadingOrderRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The set's own images in their order, each with its PAGE, ALTO and hOCR transcriptions. */
  async imagesOfSet(setId: string): Promise<ImageToOrder[]> {
    const rows = await this.db
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .leftJoin('transcription as t', (join) => join.onRef('t.image_id', '=', 'd.id').on('t.format', 'in', LAYOUT_FORMATS))
      .select(['d.id', 'd.label', 't.id as transcription_id', 't.format'])
      .where('m.set_id', '=', setId)
      .orderBy('m.position')
      .orderBy('d.id')
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute();
    const images: ImageToOrder[] = [];
    for (const row of rows) {
      let image = images[images.length - 1];
      if (image?.id !== row.id) images.push((image = { id: row.id, label: row.label, transcriptions: [] }));
      if (row.transcription_id && row.format) image.transcriptions.push({ id: row.transcription_id, format: row.format });
    }
    return images;
  }

  /**
   * Puts one transcription of the image in the order `reorder` computes from its stored layout, in
   * one transaction: the layout, its clean text and its text lines' indices, all or nothing. The
   * row is locked while its layout is read, so two runs cannot interleave.
   */
  reorder(imageId: string, transcriptionId: string, reorder: (layout: unknown, format: string) => ReorderedLayout): Promise<ReorderOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const stored = await trx
        .selectFrom('transcription')
        .select(['layout', 'format'])
        .where('id', '=', transcriptionId)
        .where('image_id', '=', imageId)
        .forUpdate()
        .executeTakeFirst();
      if (!stored) return 'gone';
      const result = reorder(stored.layout, stored.format);
      if (!result.changed) return 'unchanged';
      await trx
        .updateTable('transcription')
        .set({ layout: JSON.stringify(result.layout), clean_text: result.cleanText })
        .where('id', '=', transcriptionId)
        .execute();
      await renumberLinesOf(trx, transcriptionId, result.lineMoves);
      return 'changed';
    });
  }
}
