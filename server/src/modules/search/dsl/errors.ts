import { AppError } from '../../../platform/errors.js';

/**
 * The refusals of the DSL parser. Each is a 400 AppError whose details carry the Elasticsearch
 * error type the route answers with and where in the request the problem is.
 */
export type EsErrorType =
  | 'parsing_exception'
  | 'x_content_parse_exception'
  | 'illegal_argument_exception'
  | 'query_shard_exception';

export interface SearchErrorDetails {
  type: EsErrorType;
  /** Where in the request body, e.g. `query.bool.must[1]`; empty for the body itself. */
  at: string;
}

const where = (at: string) => (at ? ` (at ${at})` : '');

/** Something Elasticsearch accepts but this server does not run. */
export function unsupported(what: string, at: string): AppError {
  const details: SearchErrorDetails = { type: 'parsing_exception', at };
  return new AppError(400, 'search_unsupported', `${what}${where(at)} is not supported by this search server.`, details);
}

/** A request Elasticsearch would refuse too: unknown names, wrong types, impossible values. */
export function malformed(message: string, at: string, type: EsErrorType = 'parsing_exception'): AppError {
  const details: SearchErrorDetails = { type, at };
  return new AppError(400, 'search_parse', message, details);
}

/** `message` with the place appended: "The size (at size) must be …". */
export function badValue(subject: string, at: string, problem: string, type: EsErrorType = 'x_content_parse_exception') {
  return malformed(`${subject}${where(at)} ${problem}`, at, type);
}
