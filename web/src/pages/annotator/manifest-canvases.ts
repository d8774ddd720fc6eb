import { upgrade } from '@iiif/parser/upgrader';
import { IIIF_NO_CANVASES_ERROR, IiifJson } from '@pim/contract';

const { asList, idOf, isObject, isWebAddress, paintedImageOf, textOf, typeOf } = IiifJson;
type Json = IiifJson.Json;

/**
 * Reads a IIIF Presentation manifest for the annotator: version 3 as it is, version 2.x first
 * upgraded to 3 by @iiif/parser. Our own manifests (modules/iiif/presenter.ts) are version 3.
 * Anything else (an error reply, a Collection, an AnnotationPage, garbage) becomes a problem the
 * screen can name, never an exception.
 */

/** A label and value pair of a `metadata` list, as text: language maps are read, HTML is left as it is. */
export interface MetadataEntry {
  label: string;
  value: string;
}

export interface ManifestCanvas {
  id: string;
  label: string;
  metadata: MetadataEntry[];
  /**
   * What the canvas's image is known by, and what metadata is stored under (the 'uri' field):
   * the id of the IIIF Image service of its first painted image, else that image's own URL.
   */
  imageServiceId: string;
  /** The service's info.json; null when the image has no Image service (a plain picture). */
  infoUrl: string | null;
}

export interface ParsedManifest {
  label: string;
  metadata: MetadataEntry[];
  /** The canvases that paint an image, in order; audio and video canvases cannot be annotated. */
  canvases: ManifestCanvas[];
}

export type ManifestProblem =
  | { kind: 'serverError'; message: string }
  | { kind: 'noCanvases' }
  /** Canvases, but none paints an image (audio, video, text). */
  | { kind: 'noImages' }
  /** JSON, but not a manifest: `type` says what it is when it says anything. */
  | { kind: 'notManifest'; type: string | null }
  /** The upgrade of a version 2 document failed; the parser's reason. */
  | { kind: 'unreadable'; message: string }
  /** The answer is not JSON at all (an HTML page, an image). */
  | { kind: 'notJson' };

export type ManifestReading = { ok: true; manifest: ParsedManifest } | { ok: false; problem: ManifestProblem };

function metadataOf(resource: Json): MetadataEntry[] {
  return asList(resource.metadata)
    .filter(isObject)
    .map((entry) => ({ label: textOf(entry.label), value: textOf(entry.value) }))
    .filter((entry) => entry.label !== '' || entry.value !== '');
}

/** A reply of a server instead of a manifest: ours say `{error, message}`, others `{code, message}`. */
function serverErrorOf(json: Json): string | undefined {
  if (json.code === undefined && json.error === undefined) return undefined;
  return typeof json.message === 'string' ? json.message : undefined;
}

const IMAGE_API = /iiif\.io\/api\/image\//;

/** An Image API service of any version; auth, search and other services of an image are not. */
function isImageService(service: unknown): boolean {
  if (!isObject(service)) return false;
  const type = typeOf(service);
  if (type?.startsWith('ImageService')) return true;
  const context = asList(service['@context']).filter((entry): entry is string => typeof entry === 'string');
  const profile = asList(service.profile).filter((entry): entry is string => typeof entry === 'string');
  return [...context, ...profile].some((text) => IMAGE_API.test(text) || /^level[012]$/.test(text));
}

function imageServiceIdOf(image: Json): string | undefined {
  const services = asList(image.service);
  const service = services.find(isImageService) ?? services.find((candidate) => isObject(candidate) && typeOf(candidate) === undefined);
  return idOf(service)?.replace(/\/+$/, '');
}

function readCanvas(canvas: unknown, index: number): ManifestCanvas | undefined {
  if (!isObject(canvas)) return undefined;
  const image = paintedImageOf(canvas);
  if (!image) return undefined;
  const service = imageServiceIdOf(image);
  const serviceId = isWebAddress(service) ? service : undefined;
  const imageServiceId = serviceId ?? idOf(image);
  if (!isWebAddress(imageServiceId)) return undefined;
  return {
    id: idOf(canvas) ?? `canvas-${index + 1}`,
    label: textOf(canvas.label),
    metadata: metadataOf(canvas),
    imageServiceId,
    infoUrl: serviceId ? `${serviceId}/info.json` : null,
  };
}

/**
 * Version 2 documents in version 3 shape; version 3 (and anything else) comes back unchanged.
 * The upgrader rewrites the object it is given, so it gets a copy.
 */
function upgraded(json: Json): Json {
  const result: unknown = upgrade(structuredClone(json));
  return isObject(result) ? result : json;
}

export function readManifestCanvases(json: unknown): ManifestReading {
  if (!isObject(json)) return { ok: false, problem: { kind: 'notManifest', type: null } };
  // Our server answers a set without images so: the spec's message, not a server error.
  if (json.error === IIIF_NO_CANVASES_ERROR) return { ok: false, problem: { kind: 'noCanvases' } };
  const serverError = serverErrorOf(json);
  if (serverError !== undefined) return { ok: false, problem: { kind: 'serverError', message: serverError } };
  let manifest: Json;
  try {
    manifest = upgraded(json);
  } catch (error) {
    return { ok: false, problem: { kind: 'unreadable', message: error instanceof Error ? error.message : String(error) } };
  }
  const type = typeOf(manifest) ?? null;
  if (type !== 'Manifest') return { ok: false, problem: { kind: 'notManifest', type } };
  const items = asList(manifest.items).filter((item) => typeOf(item) === undefined || typeOf(item) === 'Canvas');
  if (items.length === 0) return { ok: false, problem: { kind: 'noCanvases' } };
  const canvases = items.map(readCanvas).filter((canvas) => canvas !== undefined);
  if (canvases.length === 0) return { ok: false, problem: { kind: 'noImages' } };
  return { ok: true, manifest: { label: textOf(manifest.label), metadata: metadataOf(manifest), canvases } };
}

/** The body of the manifest's answer, read. */
export function readManifestText(text: string): ManifestReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: { kind: 'notJson' } };
  }
  return readManifestCanvases(json);
}
