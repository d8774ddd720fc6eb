/**
 * The Elasticsearch query DSL as this server speaks it: `_search` bodies, `_msearch` NDJSON and
 * `_terms_enum` bodies into the engine's model (`query.ts`). Every refusal is a 400 AppError with
 * code `search_unsupported` (Elasticsearch runs it, we do not) or `search_parse` (a malformed
 * request), whose details give the Elasticsearch error type and where in the body it is.
 */
export { parseSearchRequest } from './dsl/request.js';
export { parseMsearchBody } from './dsl/msearch.js';
export { parseTermsEnumRequest, TERMS_ENUM_MAX_SIZE, type TermsEnumRequest } from './dsl/terms-enum.js';
export type { EsErrorType, SearchErrorDetails } from './dsl/errors.js';
