import type { PublicLinks } from '../../platform/http/public-url.js';

export type { LinksOf, PublicLinks } from '../../platform/http/public-url.js';

/** The IIIF Image API service of an image (its info.json is this plus `/info.json`). */
export function imageServiceUrl(links: PublicLinks, imageId: string): string {
  return `${links.publicUrl}/iiif/3/${imageId}`;
}

/** The Presentation manifest of one image alone (the image's `iiifManifestUri`). */
export function imageManifestUrl(links: PublicLinks, imageId: string): string {
  return `${links.publicUrl}${links.apiBase}pim/documentimage/${imageId}/manifest`;
}

export function setManifestUrl(links: PublicLinks, setId: string): string {
  return `${links.publicUrl}${links.apiBase}pim/imageset/${setId}/manifest`;
}

/** A canvas id lives under the manifest that holds it (a set's or an image's). */
export function canvasUrl(manifestId: string, imageId: string): string {
  return `${manifestId.replace(/\/manifest$/, '')}/canvas/${imageId}`;
}
