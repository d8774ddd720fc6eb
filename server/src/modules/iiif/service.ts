import { createHash, randomUUID } from 'node:crypto';
import { IIIF_NO_CANVASES_ERROR } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { AppError, notFound } from '../../platform/errors.js';
import {
  FORMAT_MEDIA_TYPES,
  buildPyramid,
  needsPyramid,
  pyramidLevels,
  renderIiif,
  type RenderSource,
} from '../../platform/images/iiif-render.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { ImageSetRecord } from '../imagesets/repository.js';
import type { ImageSetService } from '../imagesets/service.js';
import { type ImagePlan, canonicalPlan, parseImageRequest, planImageRequest, thumbnailPlan } from './image-request.js';
import type { IiifImageRecord, IiifRepository } from './repository.js';

export interface RenderedImage {
  etag: string;
  mediaType: string;
  /** null when the caller's If-None-Match already names this ETag (answer 304). */
  bytes: Buffer | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The IIIF Image API (info, regions, thumbnails) and Presentation manifests. Every call checks
 * read access to the image or set first; rendered derivatives are cached on disk by the source's
 * SHA-256 and the resolved request, so the same tile is rendered once.
 */
export class IiifService {
  /** Renders done (not served from the cache): lets tests and diagnostics see the cache work. */
  renders = 0;
  private readonly pyramidsInFlight = new Map<string, Promise<string | null>>();
  private readonly levelsBySha = new Map<string, { width: number; height: number }[]>();

  constructor(
    private readonly repo: IiifRepository,
    private readonly access: ImageSetAccess,
    private readonly imageSets: ImageSetService,
    private readonly files: FileStore,
    changes: ChangeNotices,
  ) {
    this.images = new TopicCache(changes, ['images']);
  }

  /** The images' facts (size, stored files, pyramid) by id, until an image's files or sets change. */
  private readonly images: TopicCache<string, IiifImageRecord>;

  /** An image the caller may read (its thumbnail, in the app). */
  async image(principal: Principal | null, id: string): Promise<IiifImageRecord> {
    return this.findImage(id, () => this.access.requireImage(principal, id, 'READ'));
  }

  /**
   * An image for the IIIF Image API and its manifest: as `image`, and for anonymous clients
   * (viewers and front-ends on other origins) when a public, published set holds it.
   */
  async openImage(principal: Principal | null, id: string): Promise<IiifImageRecord> {
    return this.findImage(id, () => this.access.requireImageOrOpen(principal, id));
  }

  private async findImage(id: string, checkAccess: () => Promise<unknown>): Promise<IiifImageRecord> {
    const missing = () => notFound(`There is no document image with id ${id}.`);
    if (!UUID.test(id)) throw missing();
    await checkAccess();
    const image = await this.images.through(id, () => this.repo.findImage(id));
    if (!image) throw missing();
    return image;
  }

  /** One Image API request; the parts are the path segments as the caller sent them. */
  async render(
    principal: Principal | null,
    id: string,
    parts: { region: string; size: string; rotation: string; qualityFormat: string },
    ifNoneMatch?: string,
  ): Promise<RenderedImage> {
    const image = await this.openImage(principal, id);
    const request = parseImageRequest(parts.region, parts.size, parts.rotation, parts.qualityFormat);
    return this.renderPlan(image, planImageRequest(request, image.width, image.height), ifNoneMatch);
  }

  /** A JPEG that fits the thumbnail box (never enlarged); cached like any other derivative. */
  async thumbnail(principal: Principal | null, id: string, ifNoneMatch?: string): Promise<RenderedImage> {
    const image = await this.image(principal, id);
    return this.renderPlan(image, thumbnailPlan(image), ifNoneMatch);
  }

  /**
   * The set (checked for READ, or public and published) and its images in order, for its
   * manifest. Presentation 3 requires a canvas per manifest: a set without images has none.
   */
  async setForManifest(principal: Principal | null, setId: string): Promise<{ set: ImageSetRecord; images: IiifImageRecord[] }> {
    const set = await this.imageSets.getOrOpen(principal, setId);
    const images = await this.repo.imagesOfSet(setId);
    if (images.length === 0) {
      throw new AppError(404, IIIF_NO_CANVASES_ERROR, `The image set ${set.name} has no images, so it has no manifest: a manifest needs at least one canvas.`);
    }
    return { set, images };
  }

  /** The set's own images in order, with their pyramids, for a caller who may change the set (a tiling job). */
  async imagesToTile(principal: Principal | null, setId: string): Promise<IiifImageRecord[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.imagesOfSet(setId);
  }

  /**
   * Makes the pyramidal tiled TIFF of a large image once and links it (document_image.tiled_file_id);
   * returns its SHA-256, or null for an image small enough to be read directly. The tiling job
   * (ConvertToTiledTiff) calls this, or the first tile request does; `replace` makes it again
   * even when the image has one.
   */
  async ensurePyramid(imageId: string, options: { replace?: boolean } = {}): Promise<string | null> {
    const running = this.pyramidsInFlight.get(imageId);
    if (running && !options.replace) return running;
    // A replacement waits for the pyramid under way, so the two never race to link theirs.
    const job: Promise<string | null> = (running ?? Promise.resolve(null))
      .catch(() => null)
      .then(() => this.makePyramid(imageId, options.replace ?? false))
      .finally(() => {
        if (this.pyramidsInFlight.get(imageId) === job) this.pyramidsInFlight.delete(imageId);
      });
    this.pyramidsInFlight.set(imageId, job);
    return job;
  }

  private async makePyramid(imageId: string, replace: boolean): Promise<string | null> {
    const image = await this.repo.findImage(imageId);
    if (!image) throw notFound(`There is no document image with id ${imageId}.`);
    if (image.tiledSha256 && !replace) return image.tiledSha256;
    if (!needsPyramid(image.width, image.height)) return null;
    // The file enters the store in the transaction that links it: a failure leaves neither.
    const staged = await this.files.stage(await buildPyramid(this.files.pathOf(image.sha256)));
    try {
      const file = {
        id: randomUUID(),
        sha256: staged.sha256,
        sizeBytes: staged.sizeBytes,
        mediaType: 'image/tiff',
        originalName: `${image.label}.pyramid.tif`,
        ownerId: image.ownerId,
      };
      const attached = await this.repo.attachPyramid(image.id, file, this.files.publication([staged]), (sha256) => this.files.remove(sha256));
      if (!attached) throw notFound(`There is no document image with id ${imageId}.`);
    } finally {
      await staged.discard();
    }
    if (image.tiledSha256 && image.tiledSha256 !== staged.sha256) this.levelsBySha.delete(image.tiledSha256);
    return staged.sha256;
  }

  private async renderPlan(image: IiifImageRecord, plan: ImagePlan, ifNoneMatch?: string): Promise<RenderedImage> {
    const key = canonicalPlan(plan);
    const etag = `"${createHash('sha256').update(`${image.sha256}/${key}`).digest('hex').slice(0, 32)}"`;
    const mediaType = FORMAT_MEDIA_TYPES[plan.format];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return { etag, mediaType, bytes: null };
    }
    const target = this.cachePathOf(image.sha256, key);
    const cached = await this.files.readCache(target);
    if (cached) return { etag, mediaType, bytes: cached };
    const bytes = await this.sourceOf(image).then((source) => renderIiif(source, plan)).catch((err: Error) => {
      // The row is there but its bytes are not (a damaged data dir): say so instead of a 500.
      if (/Input file is missing/.test(err.message)) throw notFound(`The stored file of document image ${image.id} is missing.`);
      throw err;
    });
    this.renders += 1;
    // The client has its bytes now; the next request finds them in memory until the file is written.
    this.files.putCacheInBackground(target, bytes);
    return { etag, mediaType, bytes };
  }

  /** Where a derivative is cached: by source SHA-256, one file per resolved request. */
  cachePathOf(sha256: string, canonical: string): string {
    return this.files.cachePath('iiif', sha256.slice(0, 2), sha256, canonical.replaceAll('/', '_'));
  }

  private async sourceOf(image: IiifImageRecord): Promise<RenderSource> {
    const source: RenderSource = { originalPath: this.files.pathOf(image.sha256), width: image.width, height: image.height };
    const tiled = image.tiledSha256 ?? (needsPyramid(image.width, image.height) ? await this.ensurePyramid(image.id) : null);
    if (!tiled) return source;
    const path = this.files.pathOf(tiled);
    let levels = this.levelsBySha.get(tiled);
    if (!levels) {
      levels = await pyramidLevels(path);
      this.levelsBySha.set(tiled, levels);
    }
    return { ...source, pyramid: { path, levels } };
  }
}
