import { DRAWING_LABEL_NAMES, type DrawingShape } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { DrawingRecord, DrawingRepository } from './repository.js';

/** The drawing tool's shapes on an image: read with READ on the image, replaced with WRITE. */
export class DrawingService {
  constructor(
    private readonly repo: DrawingRepository,
    private readonly access: ImageSetAccess,
  ) {}

  /** The image's drawing; null when nothing has been drawn on it. */
  async get(principal: Principal | null, imageId: string): Promise<DrawingRecord | null> {
    await this.access.requireImage(principal, imageId, 'READ');
    return this.repo.find(imageId);
  }

  /** Replaces the drawing with `shapes` (already checked against the contract); none clears it. */
  async save(principal: Principal | null, imageId: string, shapes: DrawingShape[]): Promise<DrawingRecord | null> {
    const caller = await this.access.requireImage(principal, imageId, 'WRITE');
    const size = await this.repo.imageSize(imageId);
    if (!size) throw notFound(`There is no document image with id ${imageId}.`);
    requireWithin(shapes, size);
    if (shapes.length === 0) {
      await this.repo.clear(imageId);
      return null;
    }
    const saved = await this.repo.save(imageId, shapes, caller.userId);
    if (!saved) throw notFound(`There is no document image with id ${imageId}.`);
    return saved;
  }
}

/**
 * Every point must lie on the image. Edges included: PAGE counts 0,0 as the top left corner and
 * imageWidth,imageHeight as the bottom right one.
 */
function requireWithin(shapes: DrawingShape[], { width, height }: { width: number; height: number }): void {
  shapes.forEach((shape, i) => {
    const outside = shape.points.find(([x, y]) => x > width || y > height);
    if (!outside) return;
    throw badRequest(
      `Shape ${i + 1} (${DRAWING_LABEL_NAMES[shape.label]} ${shape.kind}, id ${shape.id}) has the point ${outside[0]},${outside[1]} ` +
        `outside the image, which is ${width} x ${height} pixels.`,
    );
  });
}
