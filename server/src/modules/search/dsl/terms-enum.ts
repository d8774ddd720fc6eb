import { SEARCH_KEYWORD_FIELDS, type SearchKeywordField, type SearchTextField } from '@pim/contract';
import { malformed, unsupported } from './errors.js';
import { resolveField } from './fields.js';
import { checkParams, describe, isObject, join, readBoolean, readInteger, readString } from './values.js';

/**
 * A `_terms_enum` body (Elasticsearch's terms enum API, what search boxes ask for suggestions):
 * the terms of a field that begin with `string`.
 */

export interface TermsEnumRequest {
  field: SearchTextField | SearchKeywordField;
  string: string;
  size: number;
  caseInsensitive: boolean;
}

/** More would be a listing of the vocabulary rather than suggestions. */
export const TERMS_ENUM_MAX_SIZE = 100;

export function parseTermsEnumRequest(body: unknown): TermsEnumRequest {
  if (!isObject(body)) throw malformed(`The _terms_enum body must be a JSON object with a "field", not ${describe(body)}.`, '', 'x_content_parse_exception');
  checkParams(
    body,
    { field: 'use', string: 'use', size: 'use', case_insensitive: 'use', timeout: 'ignore', index_filter: 'unsupported', search_after: 'unsupported' },
    '_terms_enum request',
    '',
  );
  if (body.field === undefined) throw malformed('The _terms_enum request needs a "field", the field whose terms to list.', 'field', 'illegal_argument_exception');
  const name = readString(body.field, 'field', 'The field');
  const resolved = resolveField(name, 'field');
  if (resolved.kind === 'keyword' && SEARCH_KEYWORD_FIELDS[resolved.field] !== 'keyword') {
    throw unsupported(`Listing the terms of the ${SEARCH_KEYWORD_FIELDS[resolved.field]} field "${name}" (only text and keyword fields)`, 'field');
  }
  const size = body.size === undefined ? 10 : readInteger(body.size, 'size', 'The size', 1);
  if (size > TERMS_ENUM_MAX_SIZE) {
    throw malformed(`The size (at size) may be at most ${TERMS_ENUM_MAX_SIZE}, not ${size}.`, 'size', 'illegal_argument_exception');
  }
  return {
    field: resolved.field,
    string: body.string === undefined ? '' : readString(body.string, 'string', 'The string'),
    size,
    caseInsensitive: body.case_insensitive === undefined ? false : readBoolean(body.case_insensitive, join('', 'case_insensitive'), 'case_insensitive'),
  };
}
