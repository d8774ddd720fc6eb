import {
  SEARCH_ALL_INDICES,
  type MsearchResponse,
  type SearchHit,
  type SearchResponse,
  type SearchTextField,
  type TermsEnumResponse,
} from '@pim/contract';
import type { Kysely } from 'kysely';
import { visibilityScope } from '../../platform/auth/policy.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { findUnstorable, unstorableText } from '../../platform/http/storable-text.js';
import { terms } from './analysis.js';
import { parseMsearchBody, parseSearchRequest, parseTermsEnumRequest } from './dsl.js';
import { runSearch } from './engine/search.js';
import type { MsearchItem, SearchScope } from './query.js';
import type { SearchRepository } from './repository.js';

/** How many matched lines a hit lists. */
const LINES_PER_HIT = 3;

/** A cluster the searches are forwarded to instead (`ELASTICSEARCH_URL`). */
export interface SearchForwarder {
  forwardSearch(scope: SearchScope, body: unknown): Promise<SearchResponse>;
  forwardTermsEnum(scope: SearchScope, body: unknown): Promise<TermsEnumResponse>;
}

/** Links the hits' relative paths (thumbnails) are made absolute with. */
export interface SearchLinks {
  base: string;
}

function indexNotFound(name: string): AppError {
  return new AppError(404, 'index_not_found_exception', `There is no search index named "${name}".`);
}

/**
 * The search calls: who may search what (signed-in callers the sets they may read; anonymous
 * visitors the public, published sets of an index a published environment serves), then the
 * PostgreSQL engine or the cluster, and PIM's additions to each hit (matched lines, absolute links).
 */
export class SearchService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly repo: SearchRepository,
    private readonly forwarder: SearchForwarder | null,
  ) {}

  /** The indices and sets a caller searches through `target` (an index name, a comma list, or `_all`). */
  async scope(principal: Principal | null, target: string): Promise<SearchScope> {
    const names = target === SEARCH_ALL_INDICES || target === '*' ? null : [...new Set(target.split(',').map((n) => n.trim()))];
    if (!principal) {
      const published = await this.repo.publishedIndices();
      const indices = names ? published.filter((i) => names.includes(i.name)) : published;
      if (names && indices.length < names.length) {
        throw new AppError(401, 'unauthorized', 'Sign in to search this index: only the indices of published search environments are open to everyone.');
      }
      if (!names && indices.length === 0) throw new AppError(401, 'unauthorized', 'Sign in to search.');
      return { indices, setIds: await this.repo.publishedSets(indices.map((i) => i.id)) };
    }
    const indices = await this.repo.indices(names);
    if (names) {
      const missing = names.find((n) => !indices.some((i) => i.name === n));
      if (missing !== undefined) throw indexNotFound(missing);
    }
    // Admins too get the live sets by name: documents of a deleted set never show, before or after the
    // reindex that removes them.
    return { indices, setIds: await this.repo.readableSets(indices.map((i) => i.id), visibilityScope(principal, false)) };
  }

  async search(principal: Principal | null, target: string, body: unknown, links: SearchLinks): Promise<SearchResponse> {
    const scope = await this.scope(principal, target);
    return this.searchIn(scope, body ?? {}, links);
  }

  private async searchIn(scope: SearchScope, body: unknown, links: SearchLinks): Promise<SearchResponse> {
    refuseUnstorable(body);
    const response = this.forwarder ? await this.forwarder.forwardSearch(scope, body) : await runSearch(this.db, scope, parseSearchRequest(body));
    await this.addLines(response.hits.hits, highlightTags(body));
    for (const hit of response.hits.hits) {
      const thumbnail = hit._source?.thumbnail;
      if (thumbnail && !/^https?:/.test(thumbnail)) hit._source!.thumbnail = `${links.base}${thumbnail}`;
    }
    return response;
  }

  /** `_msearch`: each search with its own index (the header's, else the path's); a failed one answers its error in place. */
  async msearch(principal: Principal | null, target: string, text: string, links: SearchLinks): Promise<MsearchResponse> {
    const started = performance.now();
    const items: MsearchItem[] = parseMsearchBody(text);
    const responses: MsearchResponse['responses'] = [];
    for (const item of items) {
      try {
        const scope = await this.scope(principal, item.index ?? target);
        responses.push(await this.searchIn(scope, item.body, links));
      } catch (err) {
        // Signing in concerns the whole call, as Elasticsearch's security answers it; other failures stay in their place.
        if (!(err instanceof AppError) || err.status >= 500 || err.status === 401) throw err;
        responses.push(elasticError(err));
      }
    }
    return { took: Math.round(performance.now() - started), responses };
  }

  async termsEnum(principal: Principal | null, target: string, body: unknown): Promise<TermsEnumResponse> {
    refuseUnstorable(body);
    const scope = await this.scope(principal, target);
    if (this.forwarder) return this.forwarder.forwardTermsEnum(scope, body);
    const request = parseTermsEnumRequest(body ?? {});
    if (!['text', 'htr', 'persons'].includes(request.field)) {
      throw new AppError(400, 'search_unsupported', `Terms can be listed for the text fields (text, htr, persons), not for "${request.field}".`);
    }
    const found = await this.repo.termsStartingWith(scope, request.field as SearchTextField, request.string, request.size);
    return { _shards: { total: 1, successful: 1, failed: 0 }, terms: found, complete: true };
  }

  /** Adds to each hit the lines of its image that hold a highlighted word, with their boxes. */
  private async addLines(hits: SearchHit[], tags: { pre: string; post: string } | null): Promise<void> {
    if (!tags || hits.length === 0) return;
    const wanted = new Map<string, Set<string>>();
    for (const hit of hits) {
      const words = new Set<string>();
      for (const fragments of Object.values(hit.highlight ?? {})) {
        for (const fragment of fragments) for (const word of between(fragment, tags)) for (const term of terms(word)) words.add(term);
      }
      if (words.size) wanted.set(hit._id, words);
    }
    const lines = await this.repo.lines([...wanted.keys()]);
    for (const hit of hits) {
      const words = wanted.get(hit._id);
      if (!words) continue;
      const matched = lines.filter((l) => l.imageId === hit._id && terms(l.text).some((t) => words.has(t))).slice(0, LINES_PER_HIT);
      if (matched.length) hit.fields = { ...hit.fields, pim_lines: matched.map(({ imageId: _, ...line }) => line) };
    }
  }
}

/**
 * Search bodies arrive as text (NDJSON or JSON read by the search routes), past the check of every
 * JSON body: U+0000 and lone surrogates get the same 400 here, before any reaches the database.
 */
function refuseUnstorable(body: unknown): void {
  const found = findUnstorable(body, 'body');
  if (found) throw unstorableText(found.character, found.where);
}

/** The pre and post tags a request highlights with (Elasticsearch's defaults when it names none). */
function highlightTags(body: unknown): { pre: string; post: string } | null {
  const highlight = (body as { highlight?: { pre_tags?: unknown; post_tags?: unknown } } | null)?.highlight;
  if (!highlight || typeof highlight !== 'object') return null;
  const first = (tags: unknown, fallback: string) => (Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : fallback);
  return { pre: first(highlight.pre_tags, '<em>'), post: first(highlight.post_tags, '</em>') };
}

function* between(text: string, tags: { pre: string; post: string }): Generator<string> {
  let at = text.indexOf(tags.pre);
  while (at >= 0) {
    const end = text.indexOf(tags.post, at + tags.pre.length);
    if (end < 0) return;
    yield text.slice(at + tags.pre.length, end);
    at = text.indexOf(tags.pre, end + tags.post.length);
  }
}

/** An error in Elasticsearch's shape, as `_msearch` lists it and the search routes answer it. */
export function elasticError(err: AppError): { error: { type: string; reason: string; root_cause: { type: string; reason: string }[] }; status: number } {
  const type = err.status === 400 ? (err.code.startsWith('search_') ? 'parsing_exception' : err.code) : err.code;
  return { error: { type, reason: err.message, root_cause: [{ type, reason: err.message }] }, status: err.status };
}
