/**
 * Finds the image to show in a IIIF Presentation manifest (version 3, or 2 from other servers):
 * the Image API service of the first canvas's first image.
 */
export type ManifestOutcome =
  | { kind: 'image'; infoUrl: string }
  | { kind: 'noCanvases' }
  | { kind: 'serverError'; message: string }
  | { kind: 'noImage' };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const idOf = (value: unknown): string | undefined => {
  if (!isObject(value)) return undefined;
  const id = value.id ?? value['@id'];
  return typeof id === 'string' ? id : undefined;
};

function canvasesOf(manifest: Json): unknown[] {
  if (Array.isArray(manifest.items)) return manifest.items;
  const sequence = first(manifest.sequences);
  return isObject(sequence) && Array.isArray(sequence.canvases) ? sequence.canvases : [];
}

function serviceOfCanvas(canvas: unknown): string | undefined {
  if (!isObject(canvas)) return undefined;
  // v3: canvas.items[0] (AnnotationPage) .items[0] (Annotation) .body.service[0]
  const page = first(canvas.items);
  const annotation = isObject(page) ? first(page.items) : undefined;
  const v3Body = isObject(annotation) ? first(annotation.body) : undefined;
  // v2: canvas.images[0].resource.service
  const v2Image = first(canvas.images);
  const body = v3Body ?? (isObject(v2Image) ? v2Image.resource : undefined);
  if (!isObject(body)) return undefined;
  return idOf(first(body.service));
}

export function readManifest(json: unknown): ManifestOutcome {
  if (isObject(json) && (json.code !== undefined || json.error !== undefined) && typeof json.message === 'string') {
    return { kind: 'serverError', message: json.message };
  }
  if (!isObject(json)) return { kind: 'noCanvases' };
  const canvases = canvasesOf(json);
  if (canvases.length === 0) return { kind: 'noCanvases' };
  const service = serviceOfCanvas(canvases[0]);
  return service ? { kind: 'image', infoUrl: `${service.replace(/\/$/, '')}/info.json` } : { kind: 'noImage' };
}
