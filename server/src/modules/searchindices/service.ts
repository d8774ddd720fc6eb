import { randomUUID } from 'node:crypto';
import { ROLE, SEARCH_INDEX_AUTOCOMPLETE_PAGE_SIZE, type SaveSearchIndexRequest, type TypeaheadQuery } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { SearchIndexRecord, SearchIndexRepository } from './repository.js';

/**
 * Search indices: admins create and rename them; everyone signed in may list them, because an
 * image set's owner picks its index in the set's settings.
 */
export class SearchIndexService {
  constructor(private readonly indices: SearchIndexRepository) {}

  list(principal: Principal | null): Promise<SearchIndexRecord[]> {
    requireSignedIn(principal);
    return this.indices.list();
  }

  async get(principal: Principal | null, id: string): Promise<SearchIndexRecord> {
    requireSignedIn(principal);
    return this.require(id);
  }

  async create(principal: Principal | null, input: SaveSearchIndexRequest): Promise<SearchIndexRecord> {
    requireRole(principal, ROLE.ADMIN);
    const index = { id: randomUUID(), name: input.name };
    if (!(await this.indices.create(index))) throw taken(input.name);
    return index;
  }

  async rename(principal: Principal | null, id: string, input: SaveSearchIndexRequest): Promise<SearchIndexRecord> {
    requireRole(principal, ROLE.ADMIN);
    const outcome = await this.indices.rename(id, input.name);
    if (outcome === 'missing') throw missing(id);
    if (outcome === 'taken') throw taken(input.name);
    return { id, name: input.name };
  }

  async autocomplete(principal: Principal | null, query: TypeaheadQuery): Promise<{ results: SearchIndexRecord[]; pageSize: number }> {
    requireSignedIn(principal);
    const results = await this.indices.autocomplete({
      filter: query.filter.trim(),
      skip: query.skip,
      limit: SEARCH_INDEX_AUTOCOMPLETE_PAGE_SIZE,
    });
    return { results, pageSize: SEARCH_INDEX_AUTOCOMPLETE_PAGE_SIZE };
  }

  /** The image sets that use the index, of those the caller may see. */
  async imageSets(principal: Principal | null, id: string): Promise<{ id: string; name: string }[]> {
    const caller = requireSignedIn(principal);
    await this.require(id);
    return this.indices.imageSetsOf(id, visibilityScope(caller, false));
  }

  private async require(id: string): Promise<SearchIndexRecord> {
    const index = await this.indices.findById(id);
    if (!index) throw missing(id);
    return index;
  }
}

const missing = (id: string) => notFound(`There is no search index with id ${id}.`);
const taken = (name: string) => conflict(`A search index named "${name}" already exists: choose another name.`);
