import { type Kysely, sql } from 'kysely';
import type { Principal } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';

/** Job types whose work changes what a set's search documents hold (images, their text). */
export const TEXT_CHANGING_JOBS = new Set([
  'Tesseract4Hocr',
  'RedoTesseract4ExistingPageXML',
  'KrakenHocr',
  'HarvestIIIF',
  'SplitPDF',
  'PipelineKB',
  'FrogNer',
  'RecalculateReadingOrderNew',
]);

/**
 * Keeps the index in step without anyone asking: a change to a set's images, text or index queues
 * a SendToElasticSearch job for the set, as the person who made the change (one waiting job per set
 * and person at most; it reads the set when it starts). The change itself never waits for it.
 */
export class SearchSync {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly queue: (principal: Principal, setId: string) => Promise<unknown>,
    private readonly onError: (err: unknown, what: string) => void,
  ) {}

  /** The set's images, text or index changed. */
  async setChanged(principal: Principal, setId: string): Promise<void> {
    try {
      // A set in an index, or one that has documents left in an index it has left.
      const found = await sql<{ yes: boolean }>`
        select (exists (select 1 from document_image_set where id = ${setId} and search_index_id is not null)
          or exists (select 1 from search_document where set_ids @> array[${setId}]::uuid[])) as yes`.execute(this.db);
      if (found.rows[0]?.yes) await this.queue(principal, setId);
    } catch (err) {
      this.onError(err, `queueing the search indexing of set ${setId} failed`);
    }
  }

  /** The text of these images changed (a correction): every set in an index that holds them. */
  async imagesChanged(principal: Principal, imageIds: string[]): Promise<void> {
    const sets = await sql<{ set_id: string }>`
      select distinct m.set_id from image_set_image m join document_image_set s on s.id = m.set_id
      where m.image_id = any(${imageIds}::uuid[]) and s.deleted_at is null and s.search_index_id is not null`.execute(this.db);
    for (const row of sets.rows) await this.setChanged(principal, row.set_id);
  }
}
