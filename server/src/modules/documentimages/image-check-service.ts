import fs from 'node:fs';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import { probeImage } from '../uploads/image-probe.js';
import type { ImageCheckRepository, ImageToCheck } from './image-check-repository.js';

export type { ImageToCheck };

/**
 * Whether a set's images can be served as their records say (GenerateManifests, SetBrokenNull),
 * and their broken mark (`document_image.broken`). Checking and marking a set's images is
 * changing them: WRITE on the set.
 */
export class ImageCheckService {
  constructor(
    private readonly repo: ImageCheckRepository,
    private readonly access: ImageSetAccess,
    private readonly files: FileStore,
    /** The upload's pixel limit: an image over it is not decoded. */
    private readonly maxPixels: number,
  ) {}

  /** The set's own images in order (only those marked broken, when asked), for a caller who may change the set. */
  async imagesOfSet(principal: Principal | null, setId: string, options: { onlyBroken: boolean }): Promise<ImageToCheck[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.imagesOfSet(setId, options.onlyBroken);
  }

  /**
   * What is wrong with the image's stored original, in a sentence, or null when it decodes whole
   * (as the upload's probe decodes it) at the size its record gives, upright.
   */
  async faultOf(image: ImageToCheck): Promise<string | null> {
    const path = this.files.pathOf(image.sha256);
    if (!fs.existsSync(path)) return 'Its stored file is missing from the data directory.';
    let size: { width: number; height: number };
    try {
      size = await probeImage(path, this.maxPixels);
    } catch (err) {
      if (err instanceof AppError) return err.message;
      throw err;
    }
    if (size.width === image.width && size.height === image.height) return null;
    return `Its file is ${size.width} x ${size.height} pixels, but the image is recorded as ${image.width} x ${image.height}.`;
  }

  /** Sets or clears the image's broken mark; false when the set does not hold it (any more). */
  async markBroken(principal: Principal | null, setId: string, imageId: string, broken: boolean): Promise<boolean> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.markBroken(setId, imageId, broken);
  }
}
