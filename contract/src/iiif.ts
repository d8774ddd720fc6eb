import { z } from 'zod';

/** The path of an IIIF Image API 3 image request: `/iiif/3/{id}/{region}/{size}/{rotation}/{quality}.{format}`. */
export const iiifImageRequestParams = z.object({
  id: z.string(),
  region: z.string().describe('full, square, x,y,w,h or pct:x,y,w,h'),
  size: z.string().describe('max, w,, ,h, pct:n, w,h or !w,h, each optionally after ^ (upscaling)'),
  rotation: z.string().describe('0, 90, 180 or 270, optionally after ! (mirroring)'),
  qualityFormat: z.string().describe('{default|color|gray|bitonal}.{jpg|png|webp}'),
});

/** An Image API 3 info.json (https://iiif.io/api/image/3.0/#5-image-information). */
export const iiifImageInfoSchema = z.object({
  '@context': z.literal('http://iiif.io/api/image/3/context.json'),
  id: z.string(),
  type: z.literal('ImageService3'),
  protocol: z.literal('http://iiif.io/api/image'),
  profile: z.literal('level2'),
  width: z.number().int(),
  height: z.number().int(),
  maxWidth: z.number().int(),
  maxHeight: z.number().int(),
  maxArea: z.number().int(),
  sizes: z.array(z.object({ width: z.number().int(), height: z.number().int() })),
  tiles: z.array(z.object({ width: z.number().int(), height: z.number().int().optional(), scaleFactors: z.array(z.number().int()) })),
  extraFormats: z.array(z.string()),
  extraQualities: z.array(z.string()),
  extraFeatures: z.array(z.string()),
});
export type IiifImageInfo = z.infer<typeof iiifImageInfoSchema>;

/** A language map: `{ "none": ["text"] }`. */
const languageMap = z.record(z.string(), z.array(z.string()));

const imageServiceSchema = z.object({ id: z.string(), type: z.literal('ImageService3'), profile: z.literal('level2') });

const imageResourceSchema = z.object({
  id: z.string(),
  type: z.literal('Image'),
  format: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  service: z.array(imageServiceSchema),
});

const canvasSchema = z.object({
  id: z.string(),
  type: z.literal('Canvas'),
  label: languageMap,
  width: z.number().int(),
  height: z.number().int(),
  thumbnail: z.array(imageResourceSchema),
  items: z.array(
    z.object({
      id: z.string(),
      type: z.literal('AnnotationPage'),
      items: z.array(
        z.object({
          id: z.string(),
          type: z.literal('Annotation'),
          motivation: z.literal('painting'),
          body: imageResourceSchema,
          target: z.string(),
        }),
      ),
    }),
  ),
});

/** A Presentation API 3 manifest of an image set or of one image (https://iiif.io/api/presentation/3.0/). */
export const iiifManifestSchema = z.object({
  '@context': z.literal('http://iiif.io/api/presentation/3/context.json'),
  id: z.string(),
  type: z.literal('Manifest'),
  label: languageMap,
  summary: languageMap.optional(),
  metadata: z.array(z.object({ label: languageMap, value: languageMap })),
  thumbnail: z.array(imageResourceSchema).optional(),
  items: z.array(canvasSchema),
});
export type IiifManifest = z.infer<typeof iiifManifestSchema>;
export type IiifCanvas = z.infer<typeof canvasSchema>;
export type IiifImageResource = z.infer<typeof imageResourceSchema>;

export const IIIF_IMAGE_CONTENT_TYPE = 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"';
/**
 * The error code of our answer for the manifest of a set without images: Presentation 3 requires
 * a canvas, so there is no manifest to give; the annotator says 'Manifest does not contain any canvases.'.
 */
export const IIIF_NO_CANVASES_ERROR = 'no_canvases';

export const IIIF_PRESENTATION_CONTENT_TYPE = 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"';
/** Thumbnails fit in this box (spec part 2: "Thumbnails 320x212"). */
export const THUMBNAIL_BOX = { width: 320, height: 212 } as const;
