import type { MsearchItem } from '../query.js';
import { malformed } from './errors.js';
import { checkParams, describe, isObject } from './values.js';

/**
 * An `_msearch` body: NDJSON, a header line then a body line per search. Blank lines between them
 * are skipped, and the last line needs no newline. The bodies stay unparsed here, so one bad search
 * is an error among the responses rather than the failure of all.
 */

const HEADER = {
  index: 'use',
  preference: 'ignore',
  search_type: 'ignore',
  request_cache: 'ignore',
  routing: 'ignore',
  ignore_unavailable: 'ignore',
  allow_no_indices: 'ignore',
  expand_wildcards: 'ignore',
  ignore_throttled: 'ignore',
  allow_partial_search_results: 'ignore',
  ccs_minimize_roundtrips: 'ignore',
  max_concurrent_shard_requests: 'ignore',
  type: 'ignore',
} as const;

export function parseMsearchBody(text: string): MsearchItem[] {
  const lines = text
    .split('\n')
    .map((line, index) => ({ line: line.replace(/\r$/, ''), number: index + 1 }))
    .filter(({ line }) => line.trim() !== '');
  if (lines.length === 0) throw malformed('The _msearch body is empty: it needs a header line and a body line per search.', '', 'illegal_argument_exception');
  const items: MsearchItem[] = [];
  for (let index = 0; index < lines.length; index += 2) {
    const header = lines[index]!;
    const body = lines[index + 1];
    if (!body) {
      throw malformed(
        `Line ${header.number} of the _msearch body is a header without a search body after it; each search is a header line and a body line.`,
        `line ${header.number}`,
        'illegal_argument_exception',
      );
    }
    items.push({ index: readHeader(parseLine(header.line, header.number, 'header'), header.number), body: parseLine(body.line, body.number, 'search body') });
  }
  return items;
}

function parseLine(line: string, number: number, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw malformed(`Line ${number} of the _msearch body (a ${what}) is not valid JSON: ${reason}.`, `line ${number}`, 'x_content_parse_exception');
  }
  if (!isObject(value)) {
    const message = `Line ${number} of the _msearch body (a ${what}) must be a JSON object, not ${describe(value)}.`;
    throw malformed(message, `line ${number}`, 'x_content_parse_exception');
  }
  return value;
}

function readHeader(header: Record<string, unknown>, number: number): string | null {
  const at = `line ${number}`;
  checkParams(header, HEADER, `_msearch header on line ${number}`, at);
  const index = header.index;
  if (index === undefined || index === null) return null;
  if (typeof index === 'string' && index !== '') return index;
  if (Array.isArray(index) && index.length === 1 && typeof index[0] === 'string' && index[0] !== '') return index[0];
  const message = `The index of the _msearch header on line ${number} must be an index name (or an array of one), not ${describe(index)}.`;
  throw malformed(message, at, 'illegal_argument_exception');
}
