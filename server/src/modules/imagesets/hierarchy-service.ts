import { randomUUID } from 'node:crypto';
import { imageSetNameSchema } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireCreator, visibilityScope } from '../../platform/auth/policy.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from './access.js';
import type { HierarchyItem, HierarchyRepository } from './hierarchy-repository.js';
import type { ImageSetRepository } from './repository.js';

/** A set with its direct sub-sets and images, each in its order. */
export interface HierarchyRecord {
  imageset: HierarchyItem;
  subsets: HierarchyItem[];
  images: HierarchyItem[];
}

export const CYCLE_MESSAGE = 'An image set cannot contain itself or one of the sets that contain it.';

/**
 * Natural order of names: "page 2" before "page 10", case and accents ignored. A fixed locale
 * keeps the order the same on every server.
 */
const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byName = (a: HierarchyItem, b: HierarchyItem) => naturalOrder.compare(a.name, b.name) || (a.id < b.id ? -1 : 1);

/** The tree of a set: what it holds, adding and removing sub-sets and images, and Sort. */
export class ImageSetHierarchyService {
  constructor(
    private readonly hierarchy: HierarchyRepository,
    private readonly sets: ImageSetRepository,
    private readonly access: ImageSetAccess,
    /** Told when the images of a set changed, so its search documents follow. */
    private readonly onImagesChanged: (caller: Principal, setId: string) => Promise<void> = async () => {},
  ) {}

  async get(principal: Principal | null, setId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'READ');
    return this.load(caller, setId);
  }

  async addSubset(principal: Principal | null, setId: string, childId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    await this.access.requireSet(caller, childId, 'READ');
    await this.hierarchy.transaction(async (tx) => {
      await tx.lockSubsetGraph();
      await tx.lockSet(setId);
      if (await tx.isSelfOrAncestor(childId, setId)) throw badRequest(CYCLE_MESSAGE);
      await tx.addSubset(setId, childId);
    });
    return this.load(caller, setId);
  }

  async removeSubset(principal: Principal | null, setId: string, childId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    if (!(await this.hierarchy.removeSubset(setId, childId))) {
      throw notFound(`The image set ${childId} is not a sub-set of this image set.`);
    }
    return this.load(caller, setId);
  }

  async addImage(principal: Principal | null, setId: string, imageId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    await this.access.requireImage(caller, imageId, 'READ');
    await this.hierarchy.transaction(async (tx) => {
      await tx.lockSet(setId);
      await tx.addImage(setId, imageId);
    });
    await this.onImagesChanged(caller, setId);
    return this.load(caller, setId);
  }

  async removeImage(principal: Principal | null, setId: string, imageId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    if (!(await this.hierarchy.removeImage(setId, imageId))) {
      throw notFound(`The document image ${imageId} is not in this image set.`);
    }
    await this.onImagesChanged(caller, setId);
    return this.load(caller, setId);
  }

  /**
   * Adds images the caller may read to the set, after its last one; an image already in it stays
   * where it is. Answers how many were added.
   */
  async addImages(principal: Principal | null, setId: string, imageIds: string[]): Promise<number> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    for (const imageId of imageIds) await this.access.requireImage(caller, imageId, 'READ');
    const added = await this.hierarchy.transaction(async (tx) => {
      await tx.lockSet(setId);
      let count = 0;
      for (const imageId of imageIds) if (await tx.addImage(setId, imageId)) count += 1;
      return count;
    });
    if (added > 0) await this.onImagesChanged(caller, setId);
    return added;
  }

  /**
   * The set's sub-set the caller may see that has this name (or, given `remoteUri`, that was made
   * from that source), or a new one (theirs) when there is none: a job that sorts images into
   * sub-sets finds what an earlier run made. The set's lock makes two runs at once agree on one.
   */
  async subsetNamed(principal: Principal | null, setId: string, name: string, remoteUri?: string): Promise<{ id: string; created: boolean }> {
    const caller = requireCreator(await this.access.requireSet(principal, setId, 'WRITE'));
    const parsed = imageSetNameSchema.safeParse(name);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
    const subsetName = parsed.data;
    return this.hierarchy.transaction(async (tx) => {
      await tx.lockSet(setId);
      const scope = visibilityScope(caller, false);
      const existing =
        remoteUri === undefined
          ? (await tx.subsets(setId, scope)).find((s) => s.name === subsetName)
          : await tx.subsetFrom(setId, remoteUri, scope);
      if (existing) return { id: existing.id, created: false };
      const id = randomUUID();
      await tx.createSubset(setId, { id, name: subsetName, ownerId: caller.userId, remoteUri: remoteUri ?? null });
      return { id, created: true };
    });
  }

  /** Numbers the sub-sets and the images by name in natural order, every one of them. */
  async sort(principal: Principal | null, setId: string): Promise<HierarchyRecord> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    await this.hierarchy.transaction(async (tx) => {
      await tx.lockSet(setId);
      const subsets = (await tx.allSubsets(setId)).sort(byName);
      const images = (await tx.images(setId)).sort(byName);
      await tx.renumber(
        setId,
        subsets.map((s) => s.id),
        images.map((i) => i.id),
      );
    });
    // Images without a page number are paged by their place in the set.
    await this.onImagesChanged(caller, setId);
    return this.load(caller, setId);
  }

  private async load(caller: Principal, setId: string): Promise<HierarchyRecord> {
    const set = await this.sets.findById(setId);
    if (!set) throw notFound(`There is no image set with id ${setId}.`);
    const [subsets, images] = await Promise.all([
      this.hierarchy.subsets(setId, visibilityScope(caller, false)),
      this.hierarchy.images(setId),
    ]);
    return { imageset: { id: set.id, name: set.name }, subsets, images };
  }
}
