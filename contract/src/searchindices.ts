import { z } from 'zod';
import { namedRefSchema, typeaheadPage } from './common.js';

/** Elasticsearch caps an index name at 255 bytes. */
export const SEARCH_INDEX_NAME_MAX_BYTES = 255;
export const SEARCH_INDEX_AUTOCOMPLETE_PAGE_SIZE = 20;
/** What Elasticsearch refuses in an index name besides upper case: these characters and spaces. */
export const SEARCH_INDEX_FORBIDDEN_CHARACTERS = '\\/*?"<>|,#:';

const FORBIDDEN = new RegExp(`[\\s${SEARCH_INDEX_FORBIDDEN_CHARACTERS.replace(/[\\\]^-]/g, '\\$&')}]`);

/**
 * An index name Elasticsearch (and OpenSearch) accepts, so a set's index can be created there when
 * `ELASTICSEARCH_URL` is used: lower case, none of `\ / * ? " < > | , # :` or spaces, not starting
 * with `-`, `_` or `+`, not `.` or `..`, at most 255 bytes.
 */
export const searchIndexNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the search index a name.')
  .refine((name) => new TextEncoder().encode(name).length <= SEARCH_INDEX_NAME_MAX_BYTES, {
    message: `A search index name can be at most ${SEARCH_INDEX_NAME_MAX_BYTES} bytes long.`,
  })
  .refine((name) => name === name.toLowerCase(), { message: 'A search index name must be in lower case.' })
  .refine((name) => !FORBIDDEN.test(name), {
    message: 'A search index name cannot contain spaces or any of \\ / * ? " < > | , # :',
  })
  .refine((name) => !/^[-_+]/.test(name), { message: 'A search index name cannot start with -, _ or +.' })
  .refine((name) => name !== '.' && name !== '..', { message: 'A search index name cannot be . or ..' });

export const searchIndexSchema = z.object({ uuid: z.uuid(), name: z.string() });
export type SearchIndex = z.infer<typeof searchIndexSchema>;
export const searchIndexListSchema = z.array(searchIndexSchema);

/** `POST pim/elasticsearchindex` and `PUT pim/elasticsearchindex/{uuid}`. */
export const saveSearchIndexRequestSchema = z.object({ name: searchIndexNameSchema });
export type SaveSearchIndexRequest = z.infer<typeof saveSearchIndexRequestSchema>;

export const searchIndexParams = z.object({ uuid: z.uuid() });

/** The image sets that use an index. */
export const searchIndexImageSetsSchema = z.array(namedRefSchema);

export const searchIndexAutocompleteResponseSchema = typeaheadPage(searchIndexSchema);
