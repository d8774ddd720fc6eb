import type { TermsEnumResponse } from '@pim/contract';
import { SEARCH_KEYWORD_FIELDS, SEARCH_MAX_RESULT_WINDOW, SEARCH_TEXT_FIELDS } from '@pim/contract';
import { z } from 'zod';
import type { SearchScope } from '../query.js';
import { WORDS_FIELD, WORDS_SET_CONTEXT } from './mappings.js';
import { checkConstructs, isObject, refusedRequest } from './scoped-body.js';


const termsEnumBodySchema = z.strictObject({
  field: z.string().min(1),
  string: z.string().default(''),
  size: z.number().int().min(0).max(SEARCH_MAX_RESULT_WINDOW).default(10),
  case_insensitive: z.boolean().default(false),
  timeout: z.string().optional(),
  index_filter: z.record(z.string(), z.unknown()).optional(),
});
type TermsEnumBody = z.infer<typeof termsEnumBodySchema>;

type Json = Record<string, unknown>;

/** The search that answers a `_terms_enum`, and how to read its answer (`read(null)`: nothing was asked). */
export interface TermsEnumSearch {
  /** True when the answer is known to be empty without asking (no sets in the scope). */
  nothing: boolean;
  body: Json;
  read(response: unknown): TermsEnumResponse;
}

const SUGGESTION = 'pim_words';
const BUCKETS = 'pim_terms';

/**
 * `_terms_enum` answered by a `_search`, for two reasons. The cluster's own API works only on
 * keyword-like fields, and the search box asks for words of `text`; and its `index_filter` only
 * skips shards, so it would offer words of documents the caller may not read. Words of the text
 * fields come from the completion field of each document's words, by the sets as context; values
 * of a keyword field from a terms aggregation over the caller's documents.
 */
export function termsEnumSearch(scope: SearchScope, raw: unknown): TermsEnumSearch {
  const parsed = termsEnumBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw refusedRequest(`_terms_enum: ${issue.path.join('.') || 'body'}: ${issue.message}`, 'x_content_parse_exception');
  }
  const body = parsed.data;
  if (body.index_filter) checkConstructs(body.index_filter);
  const nothing = scope.setIds?.length === 0 || body.size === 0;
  if ((SEARCH_TEXT_FIELDS as readonly string[]).includes(body.field)) return wordSearch(scope, body, nothing);
  const keyword = body.field.replace(/\.keyword$/, '');
  if (SEARCH_KEYWORD_FIELDS[keyword as keyof typeof SEARCH_KEYWORD_FIELDS] === 'keyword') return valueSearch(scope, body, nothing);
  const keywords = Object.entries(SEARCH_KEYWORD_FIELDS).flatMap(([name, kind]) => (kind === 'keyword' ? [name] : []));
  throw refusedRequest(
    `_terms_enum works on the text fields (${SEARCH_TEXT_FIELDS.join(', ')}) and the keyword fields (${keywords.join(', ')}); [${body.field}] is neither.`,
  );
}

function wordSearch(scope: SearchScope, body: TermsEnumBody, nothing: boolean): TermsEnumSearch {
  // The completion field's analyser folds case and accents both ways: case_insensitive always holds.
  const completion = {
    field: WORDS_FIELD,
    size: body.size,
    skip_duplicates: true,
    ...(scope.setIds && { contexts: { [WORDS_SET_CONTEXT]: scope.setIds } }),
  };
  return {
    nothing,
    body: { size: 0, _source: false, ...(body.timeout && { timeout: body.timeout }), suggest: { [SUGGESTION]: { prefix: body.string, completion } } },
    read(response) {
      const entries = (isObject(response) && isObject(response.suggest) && response.suggest[SUGGESTION]) || [];
      const options = (entries as { options?: { text: string }[] }[]).flatMap((entry) => entry.options ?? []);
      return answer(response, options.map((option) => option.text));
    },
  };
}

function valueSearch(scope: SearchScope, body: TermsEnumBody, nothing: boolean): TermsEnumSearch {
  const filter = [...(scope.setIds ? [{ terms: { imageSetUuid: scope.setIds } }] : []), ...(body.index_filter ? [body.index_filter] : [])];
  const terms = { field: body.field, size: body.size, order: { _key: 'asc' }, include: prefixPattern(body.string, body.case_insensitive) };
  return {
    nothing,
    body: { size: 0, _source: false, ...(body.timeout && { timeout: body.timeout }), query: { bool: { filter } }, aggs: { [BUCKETS]: { terms } } },
    read(response) {
      const aggregation = isObject(response) && isObject(response.aggregations) ? response.aggregations[BUCKETS] : null;
      const buckets = (isObject(aggregation) && Array.isArray(aggregation.buckets) ? aggregation.buckets : []) as { key: unknown; key_as_string?: string }[];
      return answer(response, buckets.map((bucket) => bucket.key_as_string ?? String(bucket.key)));
    },
  };
}

/** The `_terms_enum` shape: distinct terms in order, complete unless a shard failed or time ran out. */
function answer(response: unknown, terms: string[]): TermsEnumResponse {
  const shards = isObject(response) && isObject(response._shards) ? response._shards : {};
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const failed = count(shards.failed);
  return {
    _shards: { total: count(shards.total), successful: count(shards.successful), failed },
    terms: [...new Set(terms)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    complete: failed === 0 && !(isObject(response) && response.timed_out === true),
  };
}

/** A Lucene regular expression for values starting with `prefix` (each letter in both cases if asked). */
export function prefixPattern(prefix: string, caseInsensitive: boolean): string {
  let pattern = '';
  for (const char of prefix) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    if (caseInsensitive && lower !== upper && [...lower].length === 1 && [...upper].length === 1) pattern += `[${lower}${upper}]`;
    else pattern += /[.?+*|{}[\]()"\\#@&<>~]/.test(char) ? `\\${char}` : char;
  }
  return `${pattern}.*`;
}
