import { imageManifestUrl, imageServiceUrl, type PublicLinks, setManifestUrl } from '../iiif/links.js';

/** What a URI of an annotation names: one of our images or manifests, or something elsewhere. */
export type RecognisedUri =
  | { kind: 'image'; imageId: string }
  | { kind: 'setManifest'; setId: string }
  | { kind: 'imageManifest'; imageId: string }
  | { kind: 'external' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Stands for the id in our own link templates. */
const MARKER = 'pim-id-marker';

/**
 * Recognises the URIs this server makes (links.ts): an image's IIIF service, a set's manifest, an
 * image's manifest. Origin and path, as the URL parser normalises them, must match exactly (query,
 * fragment and a trailing slash do not count; an image's service also takes paths below it), so
 * `https://pim.example.org.evil.test/...` is not ours. Any other absolute http(s) URL is external;
 * anything else is null (not a URI an annotation can name).
 */
export function recogniseUri(links: PublicLinks, uri: string): RecognisedUri | null {
  const url = parseHttpUrl(uri);
  if (!url) return null;
  // A trailing slash names the same resource; without this it would pass as external, unchecked.
  const path = (url.origin + url.pathname).replace(/\/$/, '');
  const patterns = [
    ['image', imageServiceUrl],
    ['setManifest', setManifestUrl],
    ['imageManifest', imageManifestUrl],
  ] as const;
  for (const [kind, make] of patterns) {
    const id = idIn(path, make(links, MARKER), kind === 'image');
    if (id === null) continue;
    if (kind === 'setManifest') return { kind, setId: id };
    return { kind, imageId: id };
  }
  return { kind: 'external' };
}

function parseHttpUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * The UUID that stands where `template` has MARKER, when `path` is the template with a UUID there.
 * With `subPaths`, also in a path below it: an image request (`…/full/max/0/default.jpg`) or
 * `info.json` names the image as well as its service does.
 */
function idIn(path: string, template: string, subPaths: boolean): string | null {
  const ours = parseHttpUrl(template);
  if (!ours) return null;
  const [before, after] = (ours.origin + ours.pathname).split(MARKER) as [string, string];
  if (!path.startsWith(before)) return null;
  const rest = path.slice(before.length);
  const id = rest.slice(0, 36);
  const tail = rest.slice(36);
  if (!UUID.test(id)) return null;
  return tail === after || (subPaths && after === '' && tail.startsWith('/')) ? id.toLowerCase() : null;
}
