import { randomUUID } from 'node:crypto';
import {
  type AclPermission,
  type CreateImageSetRequest,
  IMAGE_SET_AUTOCOMPLETE_PAGE_SIZE,
  type ImageSetAutocompleteQuery,
  type UpdateImageSetRequest,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireCreator, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from './access.js';
import type { ImageSetChanges, ImageSetRecord, ImageSetRepository } from './repository.js';

/** Trimmed text cut to `max` UTF-16 code units (as the contract counts), never between a surrogate pair; null when blank. */
function clip(text: string | null, max: number): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const cut = trimmed.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** An optional text field: a blank value clears it rather than storing whitespace. */
const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

export class ImageSetService {
  /**
   * The set lists by visibility scope, until a set, an ACL entry, a group or a person changes:
   * the list is the first call of most screens, and many people see the same one.
   */
  private readonly lists: TopicCache<string, ImageSetRecord[]>;

  constructor(
    private readonly sets: ImageSetRepository,
    private readonly access: ImageSetAccess,
    /** Told when a set's name or search index changed, so its documents follow. */
    private readonly onChanged: (caller: Principal, setId: string) => Promise<void>,
    changes: ChangeNotices,
  ) {
    this.lists = new TopicCache(changes, ['auth', 'acl', 'sets'], 1000);
  }

  async list(principal: Principal | null, onlyOwnData: boolean): Promise<ImageSetRecord[]> {
    const caller = requireSignedIn(principal);
    const scope = visibilityScope(caller, onlyOwnData);
    return (await this.lists.through(JSON.stringify(scope), () => this.sets.list(scope)))!;
  }

  async get(principal: Principal | null, id: string): Promise<ImageSetRecord> {
    await this.access.requireSet(principal, id, 'READ');
    return this.find(id);
  }

  /** A set for IIIF clients (its manifest): as `get`, and for anonymous callers when it is public and published. */
  async getOrOpen(principal: Principal | null, id: string): Promise<ImageSetRecord> {
    await this.access.requireSetOrOpen(principal, id);
    return this.find(id);
  }

  /** `GET pim/documentimageset/{uuid}`: the set with what the caller may do with it, for the page to offer just that. */
  async detail(principal: Principal | null, id: string): Promise<ImageSetRecord & { permissions: AclPermission[] }> {
    const caller = await this.access.requireSet(principal, id, 'READ');
    return { ...(await this.find(id)), permissions: await this.access.permissionsOn(caller, id) };
  }

  async create(principal: Principal | null, input: CreateImageSetRequest): Promise<{ uuid: string }> {
    const caller = requireCreator(principal);
    const id = randomUUID();
    await this.sets.create({ id, name: input.imageset, ownerId: caller.userId });
    return { uuid: id };
  }

  /**
   * Changes the fields the request carries. Making a set public or private changes who may see
   * it, so that one is the owner's (or an admin's) decision, not every writer's.
   */
  async update(principal: Principal | null, input: UpdateImageSetRequest): Promise<ImageSetRecord & { permissions: AclPermission[] }> {
    const caller = await this.access.requireSet(principal, input.uuid, 'WRITE');
    const current = await this.find(input.uuid);
    const makesPublic = input.publicDocumentImageSet;
    if (makesPublic !== undefined && makesPublic !== current.publicDocumentImageSet) {
      await this.access.requireManager(caller, input.uuid, 'make it public or private');
    }
    const index = input.elasticSearchIndex;
    if (index && !(await this.sets.searchIndexExists(index.uuid))) {
      throw badRequest(`There is no search index with id ${index.uuid}. Choose one from the list.`);
    }
    await this.sets.update(input.uuid, {
      name: input.imageset,
      prettyName: blankToNull(input.prettyName),
      description: input.description,
      searchIndexId: index === undefined ? undefined : (index?.uuid ?? null),
      publish: input.publish,
      license: blankToNull(input.license),
      publicDataSet: input.publicDataSet,
      publicDocumentImageSet: makesPublic,
    });
    if (input.elasticSearchIndex !== undefined || input.imageset !== undefined || input.prettyName !== undefined) await this.onChanged(caller, input.uuid);
    return { ...(await this.find(input.uuid)), permissions: await this.access.permissionsOn(caller, input.uuid) };
  }

  /**
   * What a harvested IIIF manifest or collection says of itself, put into the set's fields that
   * are empty (its address into remoteUri, its label into the pretty name, its summary and
   * metadata into the description, its rights into the licence); what people filled in stays.
   * Answers the fields it filled.
   */
  async fillFromSource(
    principal: Principal | null,
    setId: string,
    source: { remoteUri: string; prettyName: string | null; description: string | null; license: string | null },
  ): Promise<string[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    const current = await this.find(setId);
    // Within the lengths the settings form accepts, so the set can be saved there afterwards.
    const prettyName = clip(source.prettyName, 1000);
    const description = clip(source.description, 20_000);
    const license = clip(source.license, 1000);
    const changes: ImageSetChanges = {};
    if (current.remoteUri === null) changes.remoteUri = source.remoteUri;
    if (current.prettyName === null && prettyName) changes.prettyName = prettyName;
    if (!current.description?.trim() && description) changes.description = description;
    if (current.license === null && license) changes.license = license;
    if (Object.keys(changes).length > 0) await this.sets.update(setId, changes);
    return Object.keys(changes);
  }

  /** Soft delete: the set disappears from every list, tree and picker; its rows stay. */
  async delete(principal: Principal | null, id: string): Promise<void> {
    await this.access.requireSet(principal, id, 'DELETE');
    await this.sets.softDelete(id);
  }

  async autocomplete(
    principal: Principal | null,
    query: ImageSetAutocompleteQuery,
  ): Promise<{ results: { id: string; name: string }[]; pageSize: number }> {
    const caller = requireSignedIn(principal);
    const results = await this.sets.autocomplete(visibilityScope(caller, query.onlyOwnData), {
      filter: query.filter.trim(),
      exclude: query.exclude,
      skip: query.skip,
      limit: IMAGE_SET_AUTOCOMPLETE_PAGE_SIZE,
    });
    return { results, pageSize: IMAGE_SET_AUTOCOMPLETE_PAGE_SIZE };
  }

  private async find(id: string): Promise<ImageSetRecord> {
    const set = await this.sets.findById(id);
    if (!set) throw notFound(`There is no image set with id ${id}.`);
    return set;
  }
}
