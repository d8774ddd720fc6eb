/** The addresses of the annotator and the metadata overview, which link to each other and are linked from the annotated datasets. */

/** Where the annotator is opened: a dataset (manifest) under a field set, at one of its images when given. */
export interface AnnotatorPlace {
  uri: string;
  fieldsetid: string;
  imageUri?: string | null;
}

function query(place: AnnotatorPlace): string {
  const parts = [`uri=${encodeURIComponent(place.uri)}`, `fieldsetid=${encodeURIComponent(place.fieldsetid)}`];
  if (place.imageUri) parts.push(`imageUri=${encodeURIComponent(place.imageUri)}`);
  return parts.join('&');
}

/** /pim/analyzeimagemanual at that place. */
export function annotatorPath(place: AnnotatorPlace): string {
  return `/analyzeimagemanual?${query(place)}`;
}

/** /pim/metadataoverview of the dataset under the field set; imageUri is kept so 'Continue analyzing' returns there. */
export function overviewPagePath(place: AnnotatorPlace): string {
  return `/metadataoverview?${query(place)}`;
}

const SHORT_SEGMENTS = 2;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * An image uri as a person can tell it apart in a list: image service ids share a long prefix
 * (scheme, host, IIIF path) and differ at the end, so the last path segments are what is shown.
 */
export function shortUri(uri: string): string {
  let path = uri;
  try {
    path = new URL(uri).pathname;
  } catch {
    // Not an absolute URL: its own slashes still separate the parts worth showing.
  }
  const segments = path.split('/').filter(Boolean);
  if (segments.length <= SHORT_SEGMENTS) return uri;
  return `…/${segments.slice(-SHORT_SEGMENTS).map(decodeSegment).join('/')}`;
}
