import type { MsearchResponse, SearchResponse } from '@pim/contract';
import type { ElasticConfig } from '../../../config.js';
import { AppError } from '../../../platform/errors.js';
import type { MsearchItem, SearchScope } from '../query.js';
import { ElasticClient, type ElasticErrorBody } from './client.js';
import { clusterIndex, indexPath, ourIndex } from './index-names.js';
import { emptySearchResponse, isObject, renameIndices, scopedSearchBody } from './scoped-body.js';
import type { TermsEnumResponse } from '@pim/contract';
import { termsEnumSearch } from './terms-enum.js';

type Json = Record<string, unknown>;

/** One search of an `_msearch`: answered here (an error, an empty scope) or sent to the cluster. */
type PlannedSearch = { response: Json } | { header: Json; body: Json };

/**
 * The search API when ELASTICSEARCH_URL is set: the caller's Elasticsearch request goes to the
 * cluster narrowed to what the scope allows (its indices, its sets), and the answer comes back
 * with our index names.
 */
export class ElasticForwarder {
  private readonly client: ElasticClient;

  constructor(private readonly config: ElasticConfig) {
    this.client = new ElasticClient(config);
  }

  async forwardSearch(scope: SearchScope, body: unknown): Promise<SearchResponse> {
    const scoped = scopedSearchBody(scope, body);
    if (scope.indices.length === 0) return emptySearchResponse(scoped) as SearchResponse;
    const res = await this.client.send({
      method: 'POST',
      path: `${indexPath(this.config, scope.indices.map((index) => index.name))}/_search`,
      // An index no set has been sent to yet does not exist there: that is no error, just no hits.
      query: { ignore_unavailable: 'true' },
      json: scoped,
    });
    return this.ours(res.body) as SearchResponse;
  }

  async forwardMsearch(scope: SearchScope, items: MsearchItem[]): Promise<MsearchResponse> {
    const planned = items.map((item) => this.plan(scope, item));
    const remote = planned.filter((p): p is { header: Json; body: Json } => 'header' in p);
    let took = 0;
    let answers: unknown[] = [];
    if (remote.length > 0) {
      const res = await this.client.send({ method: 'POST', path: '/_msearch', ndjson: remote.flatMap((p) => [JSON.stringify(p.header), JSON.stringify(p.body)]) });
      const body = res.body as { took?: number; responses?: unknown[] } | null;
      if (!Array.isArray(body?.responses) || body.responses.length !== remote.length) {
        throw new AppError(502, 'search_cluster_failed', `The search cluster at ${this.config.host} answered ${remote.length} searches with ${body?.responses?.length ?? 'no'} responses.`);
      }
      took = body.took ?? 0;
      answers = body.responses.map((response) => this.ours(response));
    }
    let next = 0;
    const responses = planned.map((p) => ('response' in p ? p.response : answers[next++]));
    return { took, responses } as MsearchResponse;
  }

  /**
   * `_terms_enum` as the search box asks for it, answered with a search the scope narrows
   * (terms-enum.ts says why the cluster's own `_terms_enum` is not used).
   */
  async forwardTermsEnum(scope: SearchScope, body: unknown): Promise<TermsEnumResponse> {
    const search = termsEnumSearch(scope, body);
    if (scope.indices.length === 0 || search.nothing) return search.read(null);
    const res = await this.client.send({
      method: 'POST',
      path: `${indexPath(this.config, scope.indices.map((index) => index.name))}/_search`,
      query: { ignore_unavailable: 'true' },
      json: search.body,
    });
    return search.read(res.body);
  }

  /** An item's indices must be in the scope (the header names ours); its body is scoped as a search's. */
  private plan(scope: SearchScope, item: MsearchItem): PlannedSearch {
    const names = item.index === null || item.index === '_all' ? scope.indices.map((i) => i.name) : item.index.split(',').map((n) => n.trim());
    const missing = names.find((name) => !scope.indices.some((index) => index.name === name));
    if (missing !== undefined) return { response: indexNotFound(missing) };
    let body: Json;
    try {
      body = scopedSearchBody(scope, item.body);
    } catch (err) {
      const elastic = err instanceof AppError && (err.details as { elastic?: ElasticErrorBody } | undefined)?.elastic;
      if (elastic) return { response: elastic as unknown as Json };
      throw err;
    }
    if (names.length === 0) return { response: { ...emptySearchResponse(body), status: 200 } };
    return { header: { index: names.map((name) => clusterIndex(this.config, name)), ignore_unavailable: true }, body };
  }

  private ours(response: unknown): Json {
    if (!isObject(response)) return {};
    return renameIndices(response, (name) => ourIndex(this.config, name));
  }
}

/** What Elasticsearch answers for an index that does not exist, as one of an `_msearch`'s responses. */
function indexNotFound(name: string): Json {
  const error = { type: 'index_not_found_exception', reason: `no such index [${name}]`, 'resource.type': 'index_or_alias', 'resource.id': name, index: name };
  return { error: { root_cause: [error], ...error }, status: 404 };
}
