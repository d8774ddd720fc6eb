/**
 * Elasticsearch 8 responses as the cluster sends them, written after the examples of the
 * Elasticsearch reference (search, multi search, bulk, create/delete index, errors), with our index
 * names and fields. Not captured from a live cluster: see docs/OPERATIONS.md for what that leaves
 * unverified.
 */

const SHARDS = { total: 1, successful: 1, skipped: 0, failed: 0 };

export interface RecordedHit {
  index: string;
  id: string;
  score: number | null;
  source: Record<string, unknown>;
  highlight?: Record<string, string[]>;
  sort?: unknown[];
}

/** A `_search` answer with these hits and, optionally, one terms aggregation's buckets. */
export function searchResponse(hits: RecordedHit[], total = hits.length, aggregations?: Record<string, { key: string; doc_count: number }[]>) {
  return {
    took: 5,
    timed_out: false,
    _shards: SHARDS,
    hits: {
      total: { value: total, relation: 'eq' },
      max_score: hits.length ? Math.max(...hits.map((hit) => hit.score ?? 0)) : null,
      hits: hits.map((hit) => ({
        _index: hit.index,
        _id: hit.id,
        _score: hit.score,
        _source: hit.source,
        ...(hit.highlight && { highlight: hit.highlight }),
        ...(hit.sort && { sort: hit.sort }),
      })),
    },
    ...(aggregations && {
      aggregations: Object.fromEntries(
        Object.entries(aggregations).map(([name, buckets]) => [name, { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets }]),
      ),
    }),
  };
}

/** `_msearch`: each response carries its own status, as Elasticsearch 8 adds. */
export function msearchResponse(responses: Record<string, unknown>[]) {
  return { took: 7, responses: responses.map((response) => ('error' in response ? response : { ...response, status: 200 })) };
}

/** A completion suggester's answer (the search box's words). */
export function suggestResponse(name: string, prefix: string, options: { text: string; index: string; id: string; sets: string[] }[]) {
  return {
    took: 2,
    timed_out: false,
    _shards: SHARDS,
    hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
    suggest: {
      [name]: [
        {
          text: prefix,
          offset: 0,
          length: prefix.length,
          options: options.map((o) => ({ text: o.text, _index: o.index, _id: o.id, _score: 1.0, contexts: { set: o.sets } })),
        },
      ],
    },
  };
}

export const createIndexAcknowledged = (index: string) => ({ acknowledged: true, shards_acknowledged: true, index });
export const deleteIndexAcknowledged = { acknowledged: true };

type BulkItem = { op: 'index' | 'delete'; index: string; id: string; status: number; error?: { type: string; reason: string } };

/** A `_bulk` answer: `errors` is true when any item failed. */
export function bulkResponse(items: BulkItem[]) {
  let seqNo = 0;
  return {
    took: 30,
    errors: items.some((item) => item.error),
    items: items.map((item) => ({
      [item.op]: item.error
        ? { _index: item.index, _id: item.id, status: item.status, error: { ...item.error, index_uuid: 'aAsFqTI0Tc2W0LCWgPNrOA', shard: '0', index: item.index } }
        : {
            _index: item.index,
            _id: item.id,
            _version: 1,
            result: item.op === 'delete' ? (item.status === 404 ? 'not_found' : 'deleted') : 'created',
            _shards: { total: 2, successful: 1, failed: 0 },
            _seq_no: seqNo++,
            _primary_term: 1,
            status: item.status,
          },
    })),
  };
}

/** The item error of a document whose field does not fit the mapping (Elasticsearch 8.7 on). */
export const documentParsingError = (id: string) => ({
  type: 'document_parsing_exception',
  reason: `[1:312] failed to parse field [date] of type [date] in document with id '${id}'. Preview of field's value: 'spring 1784'`,
});

function error(status: number, type: string, reason: string, extra: Record<string, unknown> = {}) {
  return { error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra }, status };
}

export const indexNotFound = (index: string) =>
  error(404, 'index_not_found_exception', `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: '_na_', index });

export const indexAlreadyExists = (index: string) =>
  error(400, 'resource_already_exists_exception', `index [${index}/Zq7nH1ZBR8qAGr2QjXzWvg] already exists`, { index_uuid: 'Zq7nH1ZBR8qAGr2QjXzWvg', index });

export const unauthenticated = (path: string) =>
  error(401, 'security_exception', `unable to authenticate user [pim] for REST request [${path}]`, {
    header: { 'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'Bearer realm="security"', 'ApiKey'] },
  });

export const unauthorized = (index: string) =>
  error(
    403,
    'security_exception',
    `action [indices:data/read/search] is unauthorized for user [pim] with effective roles [viewer] on indices [${index}], this action is granted by the index privileges [read,all]`,
  );

export const rejectedExecution = error(
  429,
  'es_rejected_execution_exception',
  'rejected execution of coordinating operation [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=113412, max_coordinating_and_primary_bytes=107374182]',
);

/** A query a shard could not run: the top reason is only "all shards failed", the root cause says why. */
export const queryShardFailure = (index: string) => ({
  error: {
    root_cause: [{ type: 'query_shard_exception', reason: 'failed to create query: For input string: "many"', index_uuid: 'Zq7nH1ZBR8qAGr2QjXzWvg', index }],
    type: 'search_phase_execution_exception',
    reason: 'all shards failed',
    phase: 'query',
    grouped: true,
    failed_shards: [
      {
        shard: 0,
        index,
        node: 'bXhD2v1yQvC0lJvJZyZ3Fg',
        reason: { type: 'query_shard_exception', reason: 'failed to create query: For input string: "many"', index_uuid: 'Zq7nH1ZBR8qAGr2QjXzWvg', index },
      },
    ],
  },
  status: 400,
});

export const noShardAvailable = {
  error: { root_cause: [], type: 'search_phase_execution_exception', reason: 'all shards failed', phase: 'query', grouped: true, failed_shards: [] },
  status: 503,
};

/** What a reverse proxy in front of a cluster answers when the cluster is down. */
export const proxyBadGateway = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
