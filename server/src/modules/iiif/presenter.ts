import type { IiifCanvas, IiifImageInfo, IiifImageResource, IiifManifest } from '@pim/contract';
import { TILE_SIZE } from '../../platform/images/iiif-render.js';
import type { ImageSetRecord } from '../imagesets/repository.js';
import { IIIF_LIMITS, parseImageRequest, planImageRequest, thumbnailPlan } from './image-request.js';
import { type PublicLinks, canvasUrl, imageServiceUrl } from './links.js';
import type { IiifImageRecord } from './repository.js';

/** Smaller than this on the longer side, a size is not worth advertising. */
const SMALLEST_ADVERTISED = 64;

/** The info.json of an image: what it is and which requests this server answers. */
export function presentImageInfo(image: IiifImageRecord, links: PublicLinks): IiifImageInfo {
  const longest = Math.max(image.width, image.height);
  const scaleFactors = [1];
  while (longest / scaleFactors[scaleFactors.length - 1]! > TILE_SIZE) scaleFactors.push(scaleFactors[scaleFactors.length - 1]! * 2);
  const sizes: { width: number; height: number }[] = [];
  for (let f = 2; longest / f >= SMALLEST_ADVERTISED; f *= 2) {
    sizes.unshift({ width: Math.round(image.width / f), height: Math.round(image.height / f) });
  }
  return {
    '@context': 'http://iiif.io/api/image/3/context.json',
    id: imageServiceUrl(links, image.id),
    type: 'ImageService3',
    protocol: 'http://iiif.io/api/image',
    profile: 'level2',
    width: image.width,
    height: image.height,
    maxWidth: IIIF_LIMITS.maxWidth,
    maxHeight: IIIF_LIMITS.maxHeight,
    maxArea: IIIF_LIMITS.maxArea,
    sizes,
    tiles: [{ width: TILE_SIZE, height: TILE_SIZE, scaleFactors }],
    extraFormats: ['png', 'webp'],
    extraQualities: ['color', 'gray', 'bitonal'],
    extraFeatures: [
      'baseUriRedirect',
      'jsonldMediaType',
      'mirroring',
      'regionByPct',
      'regionByPx',
      'regionSquare',
      'rotationBy90s',
      'sizeByConfinedWh',
      'sizeByH',
      'sizeByPct',
      'sizeByW',
      'sizeByWh',
      'sizeUpscaling',
    ],
  };
}

/** A manifest of a set: a canvas per image, in the set's order. */
export function presentSetManifest(id: string, set: ImageSetRecord, images: IiifImageRecord[], links: PublicLinks): IiifManifest {
  const text = (value: string) => ({ none: [value] });
  const entry = (label: string, value: string | null | undefined) =>
    value ? [{ label: { en: [label] }, value: text(value) }] : [];
  const first = images[0];
  return {
    '@context': 'http://iiif.io/api/presentation/3/context.json',
    id,
    type: 'Manifest',
    label: text(set.name),
    ...(set.description ? { summary: text(set.description) } : {}),
    metadata: [
      ...entry('Name', set.name),
      ...entry('Pretty name', set.prettyName),
      ...entry('Description', set.description),
      ...entry('License', set.license),
      ...entry('Owner', set.owner?.name),
      ...entry('Created', set.createdAt.toISOString()),
    ],
    ...(first ? { thumbnail: [thumbnailOf(first, links)] } : {}),
    items: images.map((image) => presentCanvas(id, image, links)),
  };
}

/** A manifest of one image alone. */
export function presentImageManifest(id: string, image: IiifImageRecord, links: PublicLinks): IiifManifest {
  return {
    '@context': 'http://iiif.io/api/presentation/3/context.json',
    id,
    type: 'Manifest',
    label: { none: [image.label] },
    metadata: [
      { label: { en: ['Label'] }, value: { none: [image.label] } },
      { label: { en: ['Size'] }, value: { none: [`${image.width} x ${image.height} pixels`] } },
    ],
    thumbnail: [thumbnailOf(image, links)],
    items: [presentCanvas(id, image, links)],
  };
}

function presentCanvas(manifestId: string, image: IiifImageRecord, links: PublicLinks): IiifCanvas {
  const canvasId = canvasUrl(manifestId, image.id);
  const service = imageServiceUrl(links, image.id);
  const max = planImageRequest(parseImageRequest('full', 'max', '0', 'default.jpg'), image.width, image.height);
  return {
    id: canvasId,
    type: 'Canvas',
    label: { none: [image.label] },
    width: image.width,
    height: image.height,
    thumbnail: [thumbnailOf(image, links)],
    items: [
      {
        id: `${canvasId}/page`,
        type: 'AnnotationPage',
        items: [
          {
            id: `${canvasId}/page/image`,
            type: 'Annotation',
            motivation: 'painting',
            body: imageResource(`${service}/full/max/0/default.jpg`, max.width, max.height, service),
            target: canvasId,
          },
        ],
      },
    ],
  };
}

function thumbnailOf(image: IiifImageRecord, links: PublicLinks): IiifImageResource {
  const service = imageServiceUrl(links, image.id);
  const { width, height } = thumbnailPlan(image);
  return imageResource(`${service}/full/${width},${height}/0/default.jpg`, width, height, service);
}

function imageResource(id: string, width: number, height: number, service: string): IiifImageResource {
  return { id, type: 'Image', format: 'image/jpeg', width, height, service: [{ id: service, type: 'ImageService3', profile: 'level2' }] };
}
