import { randomUUID } from 'node:crypto';
import {
  FIELD_SET_AUTOCOMPLETE_PAGE_SIZE,
  METADATA_FIELD_TYPES,
  type MetadataFieldType,
  type SavePimFieldSet,
  type TypeaheadQuery,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { mayChangeOwned, maySeeOwned, requireCreator, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import type { FieldRecord, FieldSetRecord, FieldSetRepository } from './repository.js';
import { planFields } from './save-plan.js';

/** A set as the caller sees it: `editable` when they may change or delete it. */
export interface FieldSetView {
  set: FieldSetRecord;
  editable: boolean;
}

export interface FieldSetDetail extends FieldSetView {
  fields: FieldRecord[];
}

/**
 * Field sets: everyone signed in may make one (they own it) and use the public ones; a private set
 * exists only for its owner and admins. Only the owner or an admin may change or delete a set:
 * others who can see it get 403, those who cannot, 404.
 */
export class FieldSetService {
  constructor(private readonly repo: FieldSetRepository) {}

  async list(principal: Principal | null, onlyOwnData: boolean): Promise<FieldSetView[]> {
    const caller = requireSignedIn(principal);
    const sets = await this.repo.list(visibilityScope(caller, onlyOwnData));
    return sets.map((set) => ({ set, editable: mayEdit(caller, set) }));
  }

  async get(principal: Principal | null, id: string): Promise<FieldSetDetail> {
    const caller = requireSignedIn(principal);
    const set = await this.requireVisible(caller, id);
    return { set, editable: mayEdit(caller, set), fields: await this.repo.fieldsOf(id) };
  }

  async create(principal: Principal | null, input: SavePimFieldSet): Promise<FieldSetDetail> {
    const caller = requireCreator(principal);
    const id = randomUUID();
    await this.repo.transaction(async (tx) => {
      await tx.create({ id, name: input.name, isPublic: input.publicPimFieldSet, ownerId: caller.userId });
      await tx.writeFields(id, planFields([], input.fields));
    });
    return this.get(caller, id);
  }

  /** Replaces the set's name, visibility and fields in one transaction (see planFields for the matching). */
  async update(principal: Principal | null, id: string, input: SavePimFieldSet): Promise<FieldSetDetail> {
    const caller = requireSignedIn(principal);
    if (input.uuid !== undefined && input.uuid !== id) {
      throw badRequest(`The body is about field set ${input.uuid} but the address about ${id}.`);
    }
    await this.repo.transaction(async (tx) => {
      if (!(await tx.lock(id))) throw missing(id);
      await this.requireEditable(caller, id, 'change it', tx);
      const fields = planFields(await tx.fieldsOf(id), input.fields);
      await tx.updateSet(id, { name: input.name, isPublic: input.publicPimFieldSet });
      await tx.writeFields(id, fields);
    });
    return this.get(caller, id);
  }

  /** Deletes the set with its fields and every value stored with it. */
  async delete(principal: Principal | null, id: string): Promise<void> {
    const caller = requireSignedIn(principal);
    await this.requireEditable(caller, id, 'delete it');
    await this.repo.delete(id);
  }

  async autocomplete(principal: Principal | null, query: TypeaheadQuery): Promise<{ results: { id: string; name: string }[]; pageSize: number }> {
    const caller = requireSignedIn(principal);
    const results = await this.repo.autocomplete(visibilityScope(caller, query.onlyOwnData), {
      filter: query.filter.trim(),
      skip: query.skip,
      limit: FIELD_SET_AUTOCOMPLETE_PAGE_SIZE,
    });
    return { results, pageSize: FIELD_SET_AUTOCOMPLETE_PAGE_SIZE };
  }

  /** The fields of a set the caller may see whose label or name contains the filter. */
  async fieldAutocomplete(
    principal: Principal | null,
    id: string,
    query: TypeaheadQuery,
  ): Promise<{ results: { id: string; name: string; label: string; type: MetadataFieldType }[]; pageSize: number }> {
    const caller = requireSignedIn(principal);
    await this.requireVisible(caller, id);
    const rows = await this.repo.fieldAutocomplete(id, { filter: query.filter.trim(), skip: query.skip, limit: FIELD_SET_AUTOCOMPLETE_PAGE_SIZE });
    return { results: rows.map((r) => ({ ...r, type: r.type as MetadataFieldType })), pageSize: FIELD_SET_AUTOCOMPLETE_PAGE_SIZE };
  }

  fieldTypes(principal: Principal | null): readonly MetadataFieldType[] {
    requireSignedIn(principal);
    return METADATA_FIELD_TYPES;
  }

  /**
   * The one set all the given fields belong to, with its fields, when the caller may see it. A
   * field of a set they may not see is answered like an unknown one, so its existence is not told.
   */
  async setOfFields(principal: Principal | null, fieldIds: string[]): Promise<FieldSetDetail> {
    const caller = requireSignedIn(principal);
    const found = new Map((await this.repo.fieldSetsOfFields(fieldIds)).map((f) => [f.id, f.fieldSetId]));
    const sets = new Set(found.values());
    const visible = new Set<string>();
    for (const setId of sets) if (await this.isVisible(caller, setId)) visible.add(setId);
    const unknown = fieldIds.find((id) => !visible.has(found.get(id) ?? ''));
    if (unknown) throw badRequest(`There is no field with id ${unknown}: send the fields of one field set.`);
    if (visible.size > 1) throw badRequest('The fields belong to more than one field set: send the fields of one field set.');
    return this.get(caller, [...visible][0]!);
  }

  private async isVisible(caller: Principal, id: string): Promise<boolean> {
    const set = await this.repo.find(id);
    return set !== undefined && maySee(caller, set);
  }

  private async requireVisible(caller: Principal, id: string, repo = this.repo): Promise<FieldSetRecord> {
    const set = await repo.find(id);
    if (!set || !maySee(caller, set)) throw missing(id);
    return set;
  }

  private async requireEditable(caller: Principal, id: string, action: string, repo = this.repo): Promise<FieldSetRecord> {
    const set = await this.requireVisible(caller, id, repo);
    if (!mayEdit(caller, set)) throw forbidden(`Only the owner of this field set or an administrator may ${action}.`);
    return set;
  }
}

/** The policy's rules for an owned record, applied to a set (the list form is visibleFieldSets in repository.ts). */
const owned = (set: FieldSetRecord) => ({ ownerId: set.owner?.id ?? null, isPublic: set.isPublic });
const maySee = (caller: Principal, set: FieldSetRecord) => maySeeOwned(caller, owned(set));
const mayEdit = (caller: Principal, set: FieldSetRecord) => mayChangeOwned(caller, owned(set));
const missing = (id: string) => notFound(`There is no field set with id ${id}.`);
