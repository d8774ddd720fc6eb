/** What a URI of an annotation names: one of our images or manifests, or something elsewhere. */
export type RecognisedUri =
  | { kind: 'image'; imageId: string }
  | { kind: 'setManifest'; setId: string }
  | { kind: 'imageManifest'; imageId: string }
  | { kind: 'external' };

export type OwnUri = Exclude<RecognisedUri, { kind: 'external' }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The shape of the URIs this server makes (links.ts): an image's IIIF service (and the requests
 * below it), a set's manifest, an image's manifest; a URI of that shape names our record when
 * the id in it is one of ours (the caller checks: `OwnUris`). Any other absolute http(s) URL is
 * external; anything else is null (not a URI an annotation can name).
 *
 * The host is not compared, on purpose. This server answers to every name that reaches it
 * (localhost, 127.0.0.1, [::1], a LAN name, a proxy's, PUBLIC_URL), and a URI stored from one of
 * them must be ours from all the others, or a differently spelled address of someone's private
 * image would pass as external, unchecked. Ids are random UUIDs, so another server's URI of the
 * same shape holds one of ours only if someone copied it from here: then it is ours to check.
 * The path is compared after undoing every spelling a server would read the same way (percent-
 * encoding, also of the id and of slashes; doubled slashes; dot segments; letter case; a
 * trailing slash), under any prefix (a proxy may mount us under a path).
 */
export function recogniseUri(apiBase: string, uri: string): RecognisedUri | null {
  const url = parseHttpUrl(uri);
  if (!url) return null;
  const path = normalisedSegments(url.pathname);
  const api = apiBase.split('/').filter(Boolean).map((s) => s.toLowerCase());
  const imageId = idIn(path, ['iiif', '3'], 'anything');
  if (imageId) return { kind: 'image', imageId };
  const setId = idIn(path, [...api, 'pim', 'imageset'], ['manifest']);
  if (setId) return { kind: 'setManifest', setId };
  const manifestImageId = idIn(path, [...api, 'pim', 'documentimage'], ['manifest']);
  if (manifestImageId) return { kind: 'imageManifest', imageId: manifestImageId };
  return { kind: 'external' };
}

function parseHttpUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * The path's segments as a server reads them, in lower case: percent-encoding undone (until
 * nothing changes, so `%252F` too), encoded slashes split, empty and `.` segments dropped, `..`
 * taking back the one before.
 */
export function normalisedSegments(pathname: string): string[] {
  let decoded = pathname;
  for (let round = 0; round < 5; round++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const segment of decoded.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  return segments;
}

function decodeOnce(text: string): string {
  // Sequence by sequence, so one malformed escape does not keep the others encoded.
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The UUID that follows `before` in the segments when `after` follows it to the end, or with
 * 'anything', whatever follows (an image request or info.json names the image as its service does).
 */
function idIn(segments: string[], before: string[], after: string[] | 'anything'): string | null {
  for (let at = 0; at + before.length < segments.length; at++) {
    if (!before.every((s, i) => segments[at + i] === s)) continue;
    const id = segments[at + before.length]!;
    const rest = segments.slice(at + before.length + 1);
    if (UUID.test(id) && (after === 'anything' || (rest.length === after.length && after.every((s, i) => rest[i] === s)))) return id;
  }
  return null;
}
