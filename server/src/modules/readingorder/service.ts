import type { Principal } from '../../platform/auth/principal.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import { reorderLayout } from './layout-order.js';
import type { ImageToOrder, ReadingOrderRepository, ReorderOutcome } from './repository.js';

/**
 * Puts the layouts of a set's transcriptions in reading order from their geometry
 * (RecalculateReadingOrderNew). Changing a layout is changing the image: WRITE on a set holding it.
 */
export class ReadingOrderService {
  constructor(
    private readonly repo: ReadingOrderRepository,
    private readonly access: ImageSetAccess,
  ) {}

  /** The set's images and their transcriptions with a layout, for a caller who may change the set. */
  async imagesOfSet(principal: Principal | null, setId: string): Promise<ImageToOrder[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.imagesOfSet(setId);
  }

  /** Puts one transcription of the image in reading order; 'unchanged' when it was already. */
  async reorder(principal: Principal | null, imageId: string, transcriptionId: string): Promise<ReorderOutcome> {
    await this.access.requireImage(principal, imageId, 'WRITE');
    return this.repo.reorder(imageId, transcriptionId, reorderLayout);
  }
}
