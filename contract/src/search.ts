import { z } from 'zod';

/**
 * Full-text search (`POST pim/elastic/{index}/_search` and `_msearch`, `_all` for every index the
 * caller may read). The calls speak Elasticsearch's request and response shapes, so the same
 * screen works whether PostgreSQL or an Elasticsearch/OpenSearch cluster answers.
 */

/** The index name that searches every index the caller may read. */
export const SEARCH_ALL_INDICES = '_all';
/** Hits on one page of the search screen (spec part 1 §9). */
export const SEARCH_PAGE_SIZE = 20;
/** Values the language filter shows at most (spec part 1 §9). */
export const SEARCH_LANGUAGE_FACET_SIZE = 10;
/** The searched fields (spec part 1 §9). */
export const SEARCH_TEXT_FIELDS = ['text', 'htr', 'persons'] as const;
export type SearchTextField = (typeof SEARCH_TEXT_FIELDS)[number];
/** Elasticsearch's default cap on counted hits (`track_total_hits`). */
export const SEARCH_TOTAL_HITS_CAP = 10_000;
/** `from + size` may not pass this, as in Elasticsearch (`index.max_result_window`). */
export const SEARCH_MAX_RESULT_WINDOW = 10_000;

/**
 * The keyword and numeric fields of a search document: what `term(s)`, `range`, `exists`, `sort`
 * and `terms` aggregations may name (a `.keyword` suffix is accepted, as Elasticsearch's dynamic
 * mapping names them).
 */
export const SEARCH_KEYWORD_FIELDS = {
  imageUuid: 'keyword',
  imageSetUuid: 'keyword',
  imageSet: 'keyword',
  index: 'keyword',
  label: 'keyword',
  language: 'keyword',
  pagenumber: 'number',
  height: 'number',
  width: 'number',
  ocrConfidence: 'number',
  deskew: 'number',
  columnCount: 'number',
  lineCount: 'number',
  wordCount: 'number',
  date: 'date',
} as const;
export type SearchKeywordField = keyof typeof SEARCH_KEYWORD_FIELDS;

/** The `_source` of a hit: one image in one index. */
export const searchSourceSchema = z.object({
  imageUuid: z.string(),
  /** The sets of the index the image is in (readable by the caller), by id and by name. */
  imageSetUuid: z.array(z.string()),
  imageSet: z.array(z.string()),
  index: z.string(),
  label: z.string(),
  text: z.string(),
  htr: z.string(),
  persons: z.array(z.string()),
  language: z.string().nullable(),
  pagenumber: z.number().nullable(),
  height: z.number(),
  width: z.number(),
  ocrConfidence: z.number().nullable(),
  deskew: z.number().nullable(),
  columnCount: z.number().nullable(),
  lineCount: z.number().nullable(),
  wordCount: z.number(),
  /** ISO 8601. */
  date: z.string(),
  /** Absolute URL of the image's thumbnail (IIIF). */
  thumbnail: z.string(),
});
export type SearchSource = z.infer<typeof searchSourceSchema>;

/**
 * The text lines a hit matched, with their boxes on the image (PIM's addition to the hit, under
 * `fields.pim_lines` as Elasticsearch puts computed values under `fields`).
 */
export const searchHitLineSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The line's box in image pixels, when the layout has one. */
  box: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable(),
});
export type SearchHitLine = z.infer<typeof searchHitLineSchema>;

export const searchHitSchema = z.object({
  _index: z.string(),
  _id: z.string(),
  _score: z.number().nullable(),
  _source: searchSourceSchema.partial().optional(),
  highlight: z.record(z.string(), z.array(z.string())).optional(),
  sort: z.array(z.union([z.string(), z.number(), z.null()])).optional(),
  fields: z.object({ pim_lines: z.array(searchHitLineSchema).optional() }).passthrough().optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchBucketSchema = z.object({ key: z.union([z.string(), z.number()]), doc_count: z.number() });
export const searchResponseSchema = z.object({
  took: z.number(),
  timed_out: z.boolean(),
  hits: z.object({
    total: z.object({ value: z.number(), relation: z.enum(['eq', 'gte']) }),
    max_score: z.number().nullable(),
    hits: z.array(searchHitSchema),
  }),
  aggregations: z
    .record(z.string(), z.object({ buckets: z.array(searchBucketSchema), sum_other_doc_count: z.number().optional() }).passthrough())
    .optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** An Elasticsearch error body, as `_msearch` puts a failed search among its responses. */
export const searchErrorSchema = z.object({
  error: z.object({ type: z.string(), reason: z.string() }).passthrough(),
  status: z.number(),
});
export const msearchResponseSchema = z.object({
  took: z.number(),
  responses: z.array(z.union([searchResponseSchema, searchErrorSchema])),
});
export type MsearchResponse = z.infer<typeof msearchResponseSchema>;

/** The sorts of the search screen (spec part 1 §9), in its order; the first is the default. */
export const SEARCH_SORTS = [
  { key: 'pagenumber', label: 'Pagenumber asc', sort: [{ pagenumber: { order: 'asc' } }] },
  { key: 'relevance', label: 'Relevance', sort: ['_score'] },
  { key: 'height', label: 'Height', sort: [{ height: { order: 'desc' } }] },
  { key: 'width', label: 'Width', sort: [{ width: { order: 'desc' } }] },
  { key: 'ocrConfidence', label: 'OCR Confidence', sort: [{ ocrConfidence: { order: 'desc' } }] },
  { key: 'deskew', label: 'Deskew', sort: [{ deskew: { order: 'desc' } }] },
  { key: 'columnCount', label: 'Column count', sort: [{ columnCount: { order: 'desc' } }] },
  { key: 'lineCount', label: 'Line count', sort: [{ lineCount: { order: 'desc' } }] },
  { key: 'date', label: 'Date', sort: [{ date: { order: 'desc' } }] },
] as const;
export type SearchSortKey = (typeof SEARCH_SORTS)[number]['key'];

/** Words the suggestions of the search box offer at most. */
export const SEARCH_SUGGESTION_SIZE = 8;

/**
 * `POST pim/elastic/{index}/_terms_enum` (Elasticsearch's terms enum API): the indexed words of a
 * field that start with `string`, for the search box's suggestions.
 */
export const termsEnumRequestSchema = z.object({
  field: z.string(),
  string: z.string().default(''),
  size: z.number().int().min(1).default(10),
});
export type TermsEnumRequest = z.infer<typeof termsEnumRequestSchema>;
export const termsEnumResponseSchema = z.object({
  _shards: z.object({ total: z.number(), successful: z.number(), failed: z.number() }).optional(),
  terms: z.array(z.string()),
  complete: z.boolean(),
});
export type TermsEnumResponse = z.infer<typeof termsEnumResponseSchema>;
