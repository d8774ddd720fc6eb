import { upgrade } from '@iiif/parser/upgrader';
import { IiifJson } from '@pim/contract';
import { badRequest } from '../../../platform/errors.js';

const { asList, idOf, isObject, isWebAddress, paintedImageOf, stringOf, textOf, typeOf } = IiifJson;
type Json = IiifJson.Json;

/**
 * A IIIF Presentation 2 or 3 manifest or collection as a harvest reads it: version 2 upgraded to
 * 3 by @iiif/parser, then read defensively (real manifests bend the rules): what the document
 * says of itself, and its canvases with where their images are, or its members.
 */


/** A label and its value, as text. */
export interface IiifPair {
  label: string;
  value: string;
}

/** What a manifest or collection says of itself: the harvest puts it on the set it fills. */
export interface IiifSource {
  id: string;
  label: string;
  summary: string;
  metadata: IiifPair[];
  rights: string | null;
  requiredStatement: IiifPair | null;
}

export interface IiifCanvas {
  /** The canvas's id: the image's remoteUri, by which a harvest run again knows it. */
  id: string;
  label: string;
  /** Where its image is, best first: the Image service at full size, then the image resource itself. */
  imageUrls: string[];
}

export interface IiifMember {
  id: string;
  kind: 'manifest' | 'collection';
  /** The member as the collection embeds it, when it holds its own items; else it is fetched by id. */
  embedded: Json | null;
}

export type IiifDocument =
  | { kind: 'manifest'; source: IiifSource; canvases: IiifCanvas[] }
  | { kind: 'collection'; source: IiifSource; members: IiifMember[] };

function pairOf(entry: unknown): IiifPair | null {
  if (!isObject(entry)) return null;
  const pair = { label: textOf(entry.label), value: textOf(entry.value) };
  return pair.label !== '' || pair.value !== '' ? pair : null;
}

function sourceOf(doc: Json, original: Json, fetchedFrom: string): IiifSource {
  // The upgrader keeps a version 2 licence only when it knows the URI: it is read from the original then.
  const rights = stringOf(doc.rights) ?? stringOf(asList(original.license)[0]) ?? stringOf(asList(original.rights)[0]) ?? null;
  return {
    id: idOf(doc) ?? fetchedFrom,
    label: textOf(doc.label),
    summary: textOf(doc.summary),
    metadata: asList(doc.metadata).map(pairOf).filter((p) => p !== null),
    rights,
    requiredStatement: pairOf(doc.requiredStatement),
  };
}

const IMAGE_API = /iiif\.io\/api\/image\/([23])/;

/** An Image API service, and which version it speaks; auth, search and other services are not. */
function imageServiceVersion(service: unknown): 2 | 3 | null {
  if (!isObject(service)) return null;
  const type = typeOf(service);
  if (type === 'ImageService3') return 3;
  if (type === 'ImageService2' || type === 'ImageService1') return 2;
  const declared = [...asList(service['@context']), ...asList(service.profile)].filter((x): x is string => typeof x === 'string');
  const version = declared.map((text) => IMAGE_API.exec(text)?.[1]).find(Boolean);
  if (version) return version === '3' ? 3 : 2;
  if (type === undefined && declared.some((text) => /^level[012]$/.test(text))) return service.id !== undefined ? 3 : 2;
  return null;
}

/** The full-size image of a service: version 3 names it `max`, version 2 `full`. */
function imageUrlsOf(image: Json): string[] {
  const urls: string[] = [];
  for (const service of asList(image.service)) {
    const version = imageServiceVersion(service);
    const id = idOf(service)?.replace(/\/+$/, '');
    if (version !== null && isWebAddress(id)) {
      urls.push(`${id}/full/${version === 3 ? 'max' : 'full'}/0/default.jpg`);
      break;
    }
  }
  const own = idOf(image);
  if (isWebAddress(own) && !urls.includes(own)) urls.push(own);
  return urls;
}

function canvasesOf(manifest: Json, source: IiifSource): IiifCanvas[] {
  const canvases = asList(manifest.items).filter((item) => isObject(item) && (typeOf(item) ?? 'Canvas') === 'Canvas') as Json[];
  if (canvases.length === 0) throw badRequest(`The manifest ${source.id} has no canvases, so there is nothing to harvest.`);
  const withImages = canvases.flatMap((canvas, index): IiifCanvas[] => {
    const image = paintedImageOf(canvas);
    const imageUrls = image ? imageUrlsOf(image) : [];
    if (imageUrls.length === 0) return [];
    const label = textOf(canvas.label) || `${source.label || 'Canvas'} p. ${index + 1}`;
    return [{ id: idOf(canvas) ?? `${source.id}#canvas-${index + 1}`, label, imageUrls }];
  });
  if (withImages.length === 0) {
    throw badRequest(`None of the ${canvases.length} canvases of the manifest ${source.id} shows an image (audio or video cannot be harvested).`);
  }
  return withImages;
}

function membersOf(collection: Json, source: IiifSource): IiifMember[] {
  const members = asList(collection.items).flatMap((item): IiifMember[] => {
    const kind = typeOf(item) === 'Collection' ? 'collection' : typeOf(item) === 'Manifest' ? 'manifest' : null;
    const id = idOf(item);
    if (kind === null || !isObject(item) || !isWebAddress(id)) return [];
    return [{ id, kind, embedded: asList(item.items).length > 0 ? item : null }];
  });
  if (members.length === 0) throw badRequest(`The collection ${source.id} lists no manifests or collections, so there is nothing to harvest.`);
  return members;
}

/** Reads a document fetched from `fetchedFrom`; anything but a manifest or collection is refused with what it is. */
export function readIiifDocument(json: unknown, fetchedFrom: string): IiifDocument {
  const notIiif = (what: string) => badRequest(`${fetchedFrom} is not a IIIF Presentation manifest or collection: ${what}.`);
  if (!isObject(json)) throw notIiif('it is JSON, but not an object');
  let doc: Json;
  try {
    // The upgrader changes the object it is given; the original is read for what it drops.
    const upgraded: unknown = upgrade(structuredClone(json) as Parameters<typeof upgrade>[0]);
    doc = isObject(upgraded) ? upgraded : json;
  } catch (err) {
    throw notIiif(`it could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  const type = typeOf(doc);
  const source = sourceOf(doc, json, fetchedFrom);
  if (type === 'Manifest') return { kind: 'manifest', source, canvases: canvasesOf(doc, source) };
  if (type === 'Collection') return { kind: 'collection', source, members: membersOf(doc, source) };
  throw notIiif(type ? `its type is ${type}` : 'it has no type');
}

/** The text a harvested set's description gets: the summary, then the metadata pairs, attribution and rights. */
export function descriptionOf(source: IiifSource): string | null {
  const pairs = [...source.metadata, ...(source.requiredStatement ? [source.requiredStatement] : [])];
  const lines = pairs.map((p) => (p.label ? `${p.label}: ${p.value}` : p.value));
  if (source.rights) lines.push(`Rights: ${source.rights}`);
  const text = [source.summary, lines.join('\n')].filter(Boolean).join('\n\n');
  return text || null;
}
