import { z } from 'zod';
import { ACL_PERMISSIONS } from './acl.js';
import { namedRefSchema, typeaheadPage, typeaheadQuery } from './common.js';

export const IMAGE_SET_NAME_MAX = 255;

export const imageSetNameSchema = z
  .string({ error: 'Enter a name for the image set.' })
  .trim()
  .min(1, 'Enter a name for the image set.')
  .max(IMAGE_SET_NAME_MAX, `An image set name can be at most ${IMAGE_SET_NAME_MAX} characters.`);

export const createImageSetRequestSchema = z.object({ imageset: imageSetNameSchema });
export type CreateImageSetRequest = z.infer<typeof createImageSetRequestSchema>;

export const createImageSetResponseSchema = z.object({ uuid: z.uuid() });
export type CreateImageSetResponse = z.infer<typeof createImageSetResponseSchema>;

/** An image set as lists and pages show it (spec part 1 §3 and part 2 §3). */
export const documentImageSetSchema = z.object({
  uuid: z.uuid(),
  imageset: z.string().describe('the name'),
  longName: z.string().nullable(),
  prettyName: z.string().nullable(),
  description: z.string().nullable(),
  uri: z.string().describe('canonical page of the set in this app'),
  remoteUri: z.string().describe('IIIF Presentation manifest of the set'),
  elasticSearchIndex: namedRefSchema.nullable(),
  tag: z.string().nullable(),
  license: z.string().nullable(),
  publicDocumentImageSet: z.boolean(),
  publicDataSet: z.boolean(),
  publish: z.boolean(),
  owner: namedRefSchema.nullable(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  deleted: z.iso.datetime().nullable(),
  permissions: z
    .array(z.enum(ACL_PERMISSIONS))
    .optional()
    .describe('what the caller may do with the set (READ, WRITE, DELETE, ADMIN); only in the answer for one set'),
});
export type DocumentImageSet = z.infer<typeof documentImageSetSchema>;

export const documentImageSetListSchema = z.array(documentImageSetSchema);

/** `GET pim/documentimageset/{uuid}/hierarchy`: the set and its direct children, in order. */
export const hierarchyEntrySchema = z.object({ id: z.uuid(), name: z.string() });
export const hierarchySchema = z.object({
  imageset: hierarchyEntrySchema,
  subsets: z.array(hierarchyEntrySchema),
  images: z.array(hierarchyEntrySchema),
});
export type Hierarchy = z.infer<typeof hierarchySchema>;

/** Body of the hierarchy PUT/DELETE calls: the sub-set or image to add or remove. */
export const uuidBodySchema = z.object({ uuid: z.uuid('Choose an image set or image (a UUID).') });

/** `POST pim/documentimageset/update`: every editable field of a set (part 2 §3). */
export const updateImageSetRequestSchema = z.object({
  uuid: z.uuid(),
  imageset: imageSetNameSchema,
  prettyName: z.string().trim().max(1000).nullable().optional(),
  description: z.string().max(20_000).nullable().optional(),
  elasticSearchIndex: z.object({ uuid: z.uuid() }).nullable().optional(),
  publish: z.boolean().optional(),
  license: z.string().trim().max(1000).nullable().optional(),
  publicDataSet: z.boolean().optional(),
  publicDocumentImageSet: z.boolean().optional(),
});
export type UpdateImageSetRequest = z.infer<typeof updateImageSetRequestSchema>;

/**
 * `POST pim/documentimageset/{uuid}/sort`: orders a set's sub-sets and images by name in natural
 * order (page 2 before page 10) and answers the hierarchy. This call is ours: the spec only names
 * the tree's Sort button, not the call behind it.
 */
export const sortHierarchyRequestSchema = z.object({});

/** Suggestions a picker shows per page (`GET pim/documentimageset/autocomplete`). */
export const IMAGE_SET_AUTOCOMPLETE_PAGE_SIZE = 20;

/**
 * Query of the image set picker: the shared Typeahead query, plus `exclude`, a set to leave out
 * (the tree's 'Add imageset' picker leaves out the set it adds to).
 */
export const imageSetAutocompleteQuery = typeaheadQuery.extend({
  exclude: z.uuid('The set to exclude must be a UUID.').optional(),
});
export type ImageSetAutocompleteQuery = z.infer<typeof imageSetAutocompleteQuery>;

export const imageSetAutocompleteResponseSchema = typeaheadPage(namedRefSchema);
export type ImageSetAutocompleteResponse = z.infer<typeof imageSetAutocompleteResponseSchema>;
