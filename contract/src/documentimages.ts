import { z } from 'zod';
import { namedRefSchema, typeaheadPage, typeaheadQuery } from './common.js';

/** A document image as the image table and detail page show it (spec part 1 §2-3). */
export const documentImageSchema = z.object({
  uuid: z.uuid(),
  uri: z.string().describe('the IIIF Image API service of the image'),
  iiifManifestUri: z.string().describe('the Presentation manifest of this image alone'),
  remoteuri: z.string().nullable(),
  layoutXML: z.string().nullable().describe('the newest layout (PAGE/ALTO/hOCR) file, if any'),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  height: z.number().int(),
  width: z.number().int(),
  broken: z.boolean(),
  pagenumber: z.number().int().nullable(),
  pageorder: z.number().int().nullable().describe('position in the set asked for, when one is'),
  levels: z.number().int().nullable().describe('resolution levels of the tiled pyramid'),
  types: z.array(z.string()).describe('transcription formats stored for the image'),
  deskewAngle: z.number().nullable(),
  columnCount: z.number().int().nullable(),
  linesCount: z.number().int().nullable(),
  tesseractText: z.string().nullable(),
  confidence: z.number().nullable(),
  languageBest: z.string().nullable(),
  publish: z.boolean(),
  eadId: z.string().nullable(),
  label: z.string(),
  uploader: namedRefSchema.nullable(),
  htrText: z.string().nullable(),
});
export type DocumentImage = z.infer<typeof documentImageSchema>;

/** One server-side page of a set's images (`GET pim/documentimageset/{uuid}/documentimages`). */
export const documentImagePageSchema = z.object({
  results: z.array(documentImageSchema),
  total: z.number().int(),
  pageSize: z.number().int(),
});
export type DocumentImagePage = z.infer<typeof documentImagePageSchema>;

export const DOCUMENT_IMAGE_SORTABLE = [
  'label',
  'created',
  'updated',
  'height',
  'width',
  'pagenumber',
  'pageorder',
  'deskewAngle',
  'columnCount',
  'linesCount',
  'confidence',
] as const;

/** Paging, sorting and range filters of the image table, all done by the server. */
export const documentImageListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().refine((n) => [10, 20, 30, 40, 50, 500].includes(n), 'pageSize must be 10, 20, 30, 40, 50 or 500').default(10),
  sort: z.enum(DOCUMENT_IMAGE_SORTABLE).default('pageorder'),
  desc: z.stringbool().default(false),
  label: z.string().max(255).optional(),
  minWidth: z.coerce.number().optional(),
  maxWidth: z.coerce.number().optional(),
  minHeight: z.coerce.number().optional(),
  maxHeight: z.coerce.number().optional(),
});
export type DocumentImageListQuery = z.infer<typeof documentImageListQuerySchema>;

/** A transcription of an image (spec part 1 §3); layout holds regions and lines losslessly. */
export const transcriptionSchema = z.object({
  uuid: z.uuid(),
  id: z.uuid(),
  documentImageId: z.uuid(),
  format: z.string(),
  transcriber: z.string().nullable(),
  language: z.string().nullable(),
  version: z.string().nullable(),
  analyzed: z.iso.datetime().nullable(),
  params: z.unknown(),
  status: z.string(),
  cleanText: z.string(),
  sourceFileName: z.string().nullable().describe('the name of the uploaded PAGE, ALTO or hOCR file it was read from'),
});
export type Transcription = z.infer<typeof transcriptionSchema>;

/** A polygon or polyline as [x, y] points in the image's pixels. */
const layoutPointsSchema = z.array(z.tuple([z.number(), z.number()]));
export type LayoutPoints = z.infer<typeof layoutPointsSchema>;

export const transcriptionLayoutLineSchema = z.object({
  index: z.number().int().describe('0-based position of the line in the layout: regions in order, then their lines'),
  id: z.string().nullable(),
  text: z.string(),
  coords: layoutPointsSchema.nullable(),
  baseline: layoutPointsSchema.nullable(),
});
export type TranscriptionLayoutLine = z.infer<typeof transcriptionLayoutLineSchema>;

export const transcriptionLayoutRegionSchema = z.object({
  id: z.string().nullable(),
  type: z.string().nullable(),
  coords: layoutPointsSchema.nullable(),
  lines: z.array(transcriptionLayoutLineSchema),
});
export type TranscriptionLayoutRegion = z.infer<typeof transcriptionLayoutRegionSchema>;

/**
 * `GET pim/documentimage/{uuid}/transcriptions/{transcriptionUuid}/layout`: the regions and lines
 * of a transcription in the pixels of the image as it is shown (upright), whatever page size the
 * imported file measured in, so a viewer draws them over the image as they are.
 */
export const transcriptionLayoutSchema = z.object({
  transcriptionId: z.uuid(),
  width: z.number().int().describe('the image width: the space of every point'),
  height: z.number().int(),
  regions: z.array(transcriptionLayoutRegionSchema),
  readingOrder: z
    .array(z.number().int())
    .describe("every line's index in reading order: the regions as the PAGE ReadingOrder names them, else as the layout has them"),
});
export type TranscriptionLayout = z.infer<typeof transcriptionLayoutSchema>;

/**
 * The answer for one file of an upload (`postfile`): what it became. FilePond shows `message` on
 * the file's row.
 */
export const uploadResultSchema = z.object({
  kind: z.enum(['image', 'pdf', 'xml']),
  fileName: z.string(),
  documentImages: z.array(namedRefSchema).describe('images created (one per PDF page)'),
  transcriptions: z.array(z.uuid()).describe('transcriptions created from XML'),
  message: z.string(),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** One column of the image table (`GET pim/documentimage/getfielddefinition`): a field of documentImageSchema. */
export const documentImageFieldDefinitionSchema = z.object({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'date', 'text']).describe('text: long text, shown truncated'),
});
export type DocumentImageFieldDefinition = z.infer<typeof documentImageFieldDefinitionSchema>;
export const documentImageFieldDefinitionListSchema = z.array(documentImageFieldDefinitionSchema);

/** `GET pim/documentimage/autocomplete`: the picker query, optionally only the images of one set. */
export const documentImageAutocompleteQuery = typeaheadQuery.extend({
  setUuid: z.uuid('setUuid must be the UUID of an image set.').optional(),
});
export type DocumentImageAutocompleteQuery = z.infer<typeof documentImageAutocompleteQuery>;
export const documentImageAutocompletePageSchema = typeaheadPage(namedRefSchema);
