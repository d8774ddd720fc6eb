import type { DocumentImageSet } from '@pim/contract';
import type { ImageSetRecord } from './repository.js';

/** The API shape of an image set, built field by field from the record. */
export function presentImageSet(set: ImageSetRecord, links: { publicUrl: string; apiBase: string }): DocumentImageSet {
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
  };
}
