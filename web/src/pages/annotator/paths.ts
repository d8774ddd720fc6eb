/** The addresses of the annotator, its field set chooser and the metadata overview, which link to each other and are linked from the annotated datasets; and the reading of an image uri as one of our images. */

/**
 * The annotator's two screens, one component: the spec's, whose Transcription tab is a
 * placeholder, and the newer one with that tab live.
 */
export type AnnotatorScreen = 'analyzeimagemanual' | 'analyzeimagemanualnew';
const DEFAULT_SCREEN: AnnotatorScreen = 'analyzeimagemanual';

/** Where the annotator is opened: a dataset (manifest) under a field set, at one of its images when given. */
export interface AnnotatorPlace {
  uri: string;
  fieldsetid: string;
  imageUri?: string | null;
  /** Which annotator; the spec's when not given. */
  screen?: AnnotatorScreen;
}

/**
 * The chooser and the overview lead back to the annotator they were opened from: the newer one
 * is named by `screen=` in their address, the spec's by nothing, so its addresses stay as they were.
 */
function screenQuery(screen: AnnotatorScreen | undefined): string {
  return screen && screen !== DEFAULT_SCREEN ? `&screen=${screen}` : '';
}

/** The annotator named by `screen=` of the chooser's or the overview's address. */
export function annotatorScreenOf(params: URLSearchParams): AnnotatorScreen {
  return params.get('screen') === 'analyzeimagemanualnew' ? 'analyzeimagemanualnew' : DEFAULT_SCREEN;
}

function query(place: AnnotatorPlace): string {
  const parts = [`uri=${encodeURIComponent(place.uri)}`, `fieldsetid=${encodeURIComponent(place.fieldsetid)}`];
  if (place.imageUri) parts.push(`imageUri=${encodeURIComponent(place.imageUri)}`);
  return parts.join('&');
}

/** /pim/analyzeimagemanual (or the newer screen) at that place. */
export function annotatorPath(place: AnnotatorPlace): string {
  return `/${place.screen ?? DEFAULT_SCREEN}?${query(place)}`;
}

/** /pim/metadataoverview of the dataset under the field set; imageUri and the screen are kept so 'Continue analyzing' returns there. */
export function overviewPagePath(place: AnnotatorPlace): string {
  return `/metadataoverview?${query(place)}${screenQuery(place.screen)}`;
}

/** /pim/analyzeimagemanualfieldset for the manifest, whose Continue opens that annotator. */
export function chooseFieldSetPath(uri: string, screen?: AnnotatorScreen): string {
  return `/analyzeimagemanualfieldset?uri=${encodeURIComponent(uri)}${screenQuery(screen)}`;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of our image that an image uri names, or null for another server's image: the path of our
 * Image service, `…/iiif/3/{uuid}`, or a request below it. As on the server (own-uris.ts) the host
 * is not compared: our manifests name the server by its public address, which need not be the one
 * this page was loaded from. Whether the user may read the image is the server's to say.
 */
export function ownImageUuid(imageUri: string): string | null {
  let path: string;
  try {
    path = new URL(imageUri).pathname;
  } catch {
    return null;
  }
  const segments = path.split('/').filter(Boolean).map(decodeSegment);
  for (let at = 0; at + 2 < segments.length; at++) {
    const id = segments[at + 2]!;
    if (segments[at]?.toLowerCase() === 'iiif' && segments[at + 1] === '3' && UUID.test(id)) return id.toLowerCase();
  }
  return null;
}
