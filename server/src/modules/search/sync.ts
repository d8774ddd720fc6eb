import type { Principal } from '../../platform/auth/principal.js';
import type { SearchRepository } from './repository.js';

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
    private readonly repo: SearchRepository,
    private readonly queue: (principal: Principal, setId: string) => Promise<unknown>,
    private readonly onError: (err: unknown, what: string) => void,
  ) {}

  /** The set's images, text or index changed. */
  async setChanged(principal: Principal, setId: string): Promise<void> {
    try {
      if (await this.repo.setIsIndexed(setId)) await this.queue(principal, setId);
    } catch (err) {
      this.onError(err, `queueing the search indexing of set ${setId} failed`);
    }
  }

  /** The text of these images changed (a correction): every set in an index that holds them. */
  async imagesChanged(principal: Principal, imageIds: string[]): Promise<void> {
    for (const setId of await this.repo.indexedSetsHolding(imageIds)) await this.setChanged(principal, setId);
  }
}
