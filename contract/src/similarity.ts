/**
 * Similarity search and dating (spec part 2 §2 "Similarity search pages", §3 "Siamese snippet
 * result", "Siamese confusion matrix", §7 "Similarity search", §9 "Siamese defaults").
 *
 * A snippet is the crop of one text line of an image's layout, with the feature vector a model
 * gave it. The model is either the built-in handwriting descriptor (`builtin`), which needs no
 * weights, or an uploaded Siamese network model (its uuid).
 */
import { z } from 'zod';
import { namedRefSchema, typeaheadPage, typeaheadQuery } from './common.js';

/** The model id of the built-in handwriting descriptor. */
export const BUILTIN_SIMILARITY_MODEL = 'builtin';
/** What the built-in descriptor is called in pickers and results. */
export const BUILTIN_SIMILARITY_MODEL_LABEL = 'Built-in handwriting descriptor';

/** A feature vector never has more values than this (PostgreSQL's cube takes at most 100). */
export const SIMILARITY_MAX_FEATURES = 100;

/** The distances a search may rank by (`GET pim/siamese/distancealgorithms`). */
export const DISTANCE_ALGORITHMS = ['Euclidean', 'Taxicab', 'Chebyshev', 'Cosine'] as const;
export const distanceAlgorithmSchema = z.enum(DISTANCE_ALGORITHMS, {
  error: () => `The distance algorithm must be one of ${DISTANCE_ALGORITHMS.join(', ')}.`,
});
export type DistanceAlgorithm = z.infer<typeof distanceAlgorithmSchema>;

/** Spec part 2 §9: distance algorithm Euclidean, cosine similarity on, features '1..20'. */
export const SIMILARITY_DEFAULTS = {
  distanceAlgorithm: 'Euclidean' as DistanceAlgorithm,
  useCosine: true,
  features: '1..20',
};

/** How many results a nearest-neighbour search answers with. */
export const SIMILARITY_RESULT_SIZE = 50;
/** How many snippets `findByModel` and `validationsetnew` list at most. */
export const SNIPPET_LIST_SIZE = 500;

/**
 * The features to compare, 1-based: "1..20", "1,3,5..8" or "all". Parsed into sorted, distinct
 * indexes by `parseFeatures`; an index past a vector's end is ignored for that vector.
 */
export const featuresSchema = z
  .string()
  .trim()
  .max(400, 'The features list is too long.')
  .refine((text) => parseFeatures(text) !== null, {
    message: `Features are 1-based numbers or ranges up to ${SIMILARITY_MAX_FEATURES}, separated by commas, e.g. "1..20" or "1,3,5..8", or "all".`,
  });

/** The 0-based feature indexes a features text names, or null when it is malformed; "all" is every index. */
export function parseFeatures(text: string): number[] | null {
  const trimmed = text.trim();
  if (trimmed === 'all' || trimmed === '') return Array.from({ length: SIMILARITY_MAX_FEATURES }, (_, i) => i);
  const picked = new Set<number>();
  for (const part of trimmed.split(',')) {
    const match = /^\s*(\d+)\s*(?:(?:\.\.|-)\s*(\d+)\s*)?$/.exec(part);
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to < from || to > SIMILARITY_MAX_FEATURES) return null;
    for (let i = from; i <= to; i += 1) picked.add(i - 1);
  }
  return [...picked].sort((a, b) => a - b);
}

const modelMessage = `The model must be "${BUILTIN_SIMILARITY_MODEL}" or the uuid of a Siamese network model.`;
export const similarityModelIdSchema = z.union([z.literal(BUILTIN_SIMILARITY_MODEL), z.uuid()], { error: () => modelMessage });

const flag = (defaultValue: boolean) => z.stringbool({ error: () => 'Use true or false.' }).default(defaultValue);

/** A snippet found by a search (spec part 2 §3 "Siamese snippet result"), with where it comes from. */
export const siameseSnippetResultSchema = z.object({
  uuid: z.uuid(),
  distance: z.number().describe('the distance to what was searched for, by the chosen algorithm; 0 in plain lists'),
  cosineFromTarget: z.number().nullable().describe('the cosine similarity to what was searched for, -1 to 1'),
  tag: z.string().nullable().describe("the snippet's label: the value of the job's label field for its image"),
  documentImageId: z.uuid(),
  documentOCRResultLineUUID: z.uuid().nullable().describe('the text line the snippet was cut from'),
  imageLocation: z.string().describe("the crop's image: an API path like a search hit's thumbnail, pim/pimsimpletextline/{line}/image"),
  documentImageLabel: z.string(),
  lineText: z.string().nullable(),
  region: z.object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() }),
  model: z.string(),
});
export type SiameseSnippetResult = z.infer<typeof siameseSnippetResultSchema>;
export const siameseSnippetResultsSchema = z.array(siameseSnippetResultSchema);

/** `GET pim/siamese/models`: the models that have snippets the caller may read. */
export const similarityModelSchema = z.object({
  id: z.string(),
  label: z.string(),
  snippets: z.number().int(),
  dimensions: z.number().int(),
});
export type SimilarityModel = z.infer<typeof similarityModelSchema>;
export const similarityModelsSchema = z.array(similarityModelSchema);

export const distanceAlgorithmsSchema = z.array(distanceAlgorithmSchema);

/** `GET pim/siamese/validationsetnew?model=`: the labelled snippets of a model. */
export const validationSetQuery = z.object({ model: similarityModelIdSchema });
/** `GET pim/siamese/find?id=&model=`: the nearest snippets to one. */
export const findSnippetQuery = z.object({ id: z.uuid('The snippet must be given by its uuid.'), model: similarityModelIdSchema });
/** `GET pim/siamese/findsinglenew?uuid=&model=&usecosine=&features=`. */
export const findSingleNewQuery = z.object({
  uuid: z.uuid('The snippet must be given by its uuid.'),
  model: similarityModelIdSchema,
  usecosine: flag(SIMILARITY_DEFAULTS.useCosine),
  features: featuresSchema.default(SIMILARITY_DEFAULTS.features),
});
export type FindSingleNewQuery = z.infer<typeof findSingleNewQuery>;

const optionalUuid = (what: string) => z.uuid(`${what} must be given by its uuid.`).optional();

/** `POST pim/siamese/findByModel`: the snippets of an image, or of a set's images with a metadata value. */
export const findByModelBody = z
  .object({
    model: similarityModelIdSchema,
    imageSetUuid: optionalUuid('The image set'),
    imageUuid: optionalUuid('The image'),
    pimField: optionalUuid('The metadata field'),
    pimFieldValue: z.string().max(1000).optional(),
  })
  .refine((b) => b.imageUuid !== undefined || b.imageSetUuid !== undefined, { message: 'Choose an image or an image set.', path: ['imageUuid'] });
export type FindByModelBody = z.infer<typeof findByModelBody>;

/**
 * `POST pim/siamese/findsinglenewmetadata`, `/compareimagesnippets`, `/comparewithimageset`. What
 * each reads:
 * - findsinglenewmetadata: the snippet `exampleUuid`; searches every readable set, or
 *   `imageSetUuid`; `pimField`/`pimFieldValue` keep images with that value.
 * - compareimagesnippets: image `imageUuid` against image `exampleUuid`: for each snippet of the
 *   first, its nearest snippet in the second.
 * - comparewithimageset: image `imageUuid` against the images of set `imageSetUuid` (every set the
 *   caller may read when absent), ranked by the distance of their mean descriptors, each shown by
 *   its snippet nearest to the image.
 * `onlyDifferentImages`/`onlyDifferentImageSets` leave out the query's own image or its sets.
 */
export const compareBody = z.object({
  model: similarityModelIdSchema,
  imageSetUuid: optionalUuid('The image set'),
  imageUuid: optionalUuid('The image'),
  exampleUuid: optionalUuid('The example'),
  onlyDifferentImageSets: z.boolean().default(false),
  onlyDifferentImages: z.boolean().default(false),
  pimField: optionalUuid('The metadata field'),
  pimFieldValue: z.string().max(1000).optional(),
  distanceAlgorithm: distanceAlgorithmSchema.default(SIMILARITY_DEFAULTS.distanceAlgorithm),
});
export type CompareBody = z.input<typeof compareBody>;

/** `POST pim/siamese/compareimagesnippets`: each pair, and the images' distance (the median of the pairs'). */
export const compareImagesResponseSchema = z.object({
  distance: z.number().nullable(),
  pairs: z.array(z.object({ query: siameseSnippetResultSchema, match: siameseSnippetResultSchema })),
});
export type CompareImagesResponse = z.infer<typeof compareImagesResponseSchema>;

/** Autocompletes of the similarity pages. */
export const similarityAutocompleteQuery = typeaheadQuery;
export const similarityRefPageSchema = typeaheadPage(namedRefSchema);
export const similarityModelParams = z.object({ model: similarityModelIdSchema });
export const similarityFieldParams = z.object({ model: similarityModelIdSchema, field: z.uuid('The metadata field must be given by its uuid.') });
export const similaritySetParams = z.object({ model: similarityModelIdSchema, imageset: z.uuid('The image set must be given by its uuid.') });
/** Values of a metadata field, or models: `uuid` is the value or the model id (pickers key on it; 'builtin' is no uuid). */
export const similarityValuePageSchema = typeaheadPage(z.object({ uuid: z.string(), name: z.string() }));

/** `GET pim/siamese/dateestimate?imageUuid=&model=&dateField=&scriptField=`: a date from dated neighbours. */
export const dateEstimateQuery = z.object({
  imageUuid: z.uuid('The image must be given by its uuid.'),
  model: similarityModelIdSchema.default(BUILTIN_SIMILARITY_MODEL),
  dateField: z.uuid('The date field must be given by its uuid.'),
  scriptField: z.uuid('The script field must be given by its uuid.').optional(),
});
export type DateEstimateQuery = z.input<typeof dateEstimateQuery>;

export const dateEstimateSchema = z.object({
  /** The estimate, YYYY-MM-DD (1 July of the estimated year), ready for a date field; null without dated neighbours. */
  date: z.string().nullable(),
  year: z.number().nullable(),
  /** The interval that holds the estimate's middle 80 % of the neighbours' weight. */
  from: z.number().nullable(),
  to: z.number().nullable(),
  script: z.string().nullable(),
  scriptShare: z.number().nullable().describe("the weight share of the neighbours with that script, 0 to 1"),
  neighbours: z.array(
    z.object({
      documentImageId: z.uuid(),
      documentImageLabel: z.string(),
      distance: z.number(),
      weight: z.number(),
      date: z.string().nullable(),
      script: z.string().nullable(),
      snippet: siameseSnippetResultSchema,
    }),
  ),
  /** Why there is no estimate, when there is none. */
  reason: z.string().nullable(),
});
export type DateEstimate = z.infer<typeof dateEstimateSchema>;

/** A confusion matrix (spec part 2 §3): its report text, with the numbers the screen draws. */
export const confusionMatrixSchema = z.object({
  uuid: z.uuid(),
  created: z.iso.datetime(),
  report: z.string(),
  model: z.string(),
  modelLabel: z.string(),
  imageSet: namedRefSchema.nullable(),
  labels: z.array(z.string()),
  /** matrix[true label][predicted label], counts of snippets. */
  matrix: z.array(z.array(z.number().int())),
  accuracy: z.number(),
  snippets: z.number().int(),
});
export type ConfusionMatrix = z.infer<typeof confusionMatrixSchema>;
export const confusionMatrixSummarySchema = confusionMatrixSchema.pick({ uuid: true, created: true, model: true, modelLabel: true, imageSet: true, accuracy: true, snippets: true });
export type ConfusionMatrixSummary = z.infer<typeof confusionMatrixSummarySchema>;
export const confusionMatricesSchema = z.array(confusionMatrixSummarySchema);
export const confusionMatrixParams = z.object({ uuid: z.uuid('The confusion matrix must be given by its uuid.') });
