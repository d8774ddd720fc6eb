import type { AclPermission, DocumentImageSet, Hierarchy, NamedRef } from '@pim/contract';
import type { HierarchyItem } from './hierarchy-repository.js';
import type { HierarchyRecord } from './hierarchy-service.js';
import type { ImageSetRecord } from './repository.js';

/**
 * The API shape of an image set, built field by field from the record; with the caller's
 * permissions on it when the answer is about this one set.
 */
export function presentImageSet(
  set: ImageSetRecord & { permissions?: AclPermission[] },
  links: { publicUrl: string; apiBase: string },
): DocumentImageSet {
  return {
    uuid: set.id,
    imageset: set.name,
    longName: set.longName,
    prettyName: set.prettyName,
    description: set.description,
    uri: `${links.publicUrl}/pim/imageset?uuid=${set.id}`,
    remoteUri: set.remoteUri ?? `${links.publicUrl}${links.apiBase}pim/imageset/${set.id}/manifest`,
    elasticSearchIndex: set.searchIndex && { uuid: set.searchIndex.id, name: set.searchIndex.name },
    tag: set.tag,
    license: set.license,
    publicDocumentImageSet: set.publicDocumentImageSet,
    publicDataSet: set.publicDataSet,
    publish: set.publish,
    owner: set.owner && { uuid: set.owner.id, name: set.owner.name },
    created: set.createdAt.toISOString(),
    updated: set.updatedAt.toISOString(),
    deleted: set.deletedAt?.toISOString() ?? null,
    ...(set.permissions && { permissions: set.permissions }),
  };
}

const entry = (item: HierarchyItem) => ({ id: item.id, name: item.name });

/** The tree of one set: the set, then its sub-sets and images in order. */
export function presentHierarchy(h: HierarchyRecord): Hierarchy {
  return { imageset: entry(h.imageset), subsets: h.subsets.map(entry), images: h.images.map(entry) };
}

/** A set as a picker suggests it. */
export function presentImageSetRef(set: { id: string; name: string }): NamedRef {
  return { uuid: set.id, name: set.name };
}
