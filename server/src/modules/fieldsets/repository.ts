import type { MetadataFieldType } from '@pim/contract';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import { containsText, visibleOwned } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';

/** A field set with its owner's name and how many fields it has. */
export interface FieldSetRecord {
  id: string;
  name: string;
  isPublic: boolean;
  owner: { id: string; name: string } | null;
  fieldCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface FieldOptionRecord {
  id: string;
  value: string;
  createdAt: Date;
}

/** A field of a set; `options` are the values of a select field, in order (none for other types). */
export interface FieldRecord {
  id: string;
  fieldSetId: string;
  position: number;
  label: string;
  name: string;
  description: string;
  type: MetadataFieldType;
  copyValue: boolean;
  options: FieldOptionRecord[];
}

/** A select value as a save writes it; `renamedFrom` is its old text when a kept value changed. */
export interface PlannedOption {
  id: string;
  value: string;
  isNew: boolean;
  renamedFrom: string | null;
}

/** A field as a save writes it, at `position`; a kept field whose type changed loses its stored values. */
export interface PlannedField {
  id: string;
  isNew: boolean;
  typeChanged: boolean;
  position: number;
  label: string;
  name: string;
  description: string;
  type: MetadataFieldType;
  copyValue: boolean;
  options: PlannedOption[];
}

/**
 * SQL that is true for the field sets (under `alias`) in the caller's scope: admins see all, others
 * their own and the public ones; 'only own data' narrows to their own. Field sets have no ACL.
 */
export function visibleFieldSets(scope: VisibilityScope, alias: string): Expression<SqlBool> {
  return visibleOwned(scope, { ownerId: `${alias}.owner_id`, isPublic: `${alias}.public_pim_field_set` });
}

/** Field sets, their fields in order and the values of their select fields: the only SQL on these tables. */
export class FieldSetRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction with a repository bound to it; a throw rolls it all back. */
  transaction<T>(work: (tx: FieldSetRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new FieldSetRepository(trx)));
  }

  private selectSets() {
    return this.db
      .selectFrom('pim_field_set as fs')
      .leftJoin('pim_user as u', 'u.id', 'fs.owner_id')
      .select((eb) => [
        'fs.id',
        'fs.name',
        'fs.public_pim_field_set',
        'fs.owner_id',
        'u.name as owner_name',
        'fs.created_at',
        'fs.updated_at',
        eb.selectFrom('pim_field as f').select(eb.fn.countAll<string>().as('n')).whereRef('f.field_set_id', '=', 'fs.id').as('field_count'),
      ]);
  }

  async list(scope: VisibilityScope): Promise<FieldSetRecord[]> {
    const rows = await this.selectSets().where(visibleFieldSets(scope, 'fs')).orderBy(sql`lower(fs.name)`).orderBy('fs.id').execute();
    return rows.map(toSetRecord);
  }

  async find(id: string): Promise<FieldSetRecord | undefined> {
    const row = await this.selectSets().where('fs.id', '=', id).executeTakeFirst();
    return row && toSetRecord(row);
  }

  /** Holds the set's row until the transaction ends: saves of a set, and of values under it (which share-lock it), wait. */
  async lock(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('pim_field_set').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    return row !== undefined;
  }

  /** The fields of the set, in order, with their select values. */
  async fieldsOf(setId: string): Promise<FieldRecord[]> {
    const rows = await this.db
      .selectFrom('pim_field')
      .select(['id', 'field_set_id', 'position', 'label', 'name', 'description', 'type', 'copy_value'])
      .where('field_set_id', '=', setId)
      .orderBy('position')
      .execute();
    const options = await this.optionsOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      fieldSetId: r.field_set_id,
      position: r.position,
      label: r.label,
      name: r.name,
      description: r.description,
      type: r.type as MetadataFieldType,
      copyValue: r.copy_value,
      options: options.get(r.id) ?? [],
    }));
  }

  /** Which set each of the fields belongs to; unknown ids are left out. */
  fieldSetsOfFields(fieldIds: string[]): Promise<{ id: string; fieldSetId: string }[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('pim_field').select(['id', 'field_set_id as fieldSetId']).where('id', 'in', fieldIds).execute();
  }

  async create(set: { id: string; name: string; isPublic: boolean; ownerId: string | null }): Promise<void> {
    await this.db
      .insertInto('pim_field_set')
      .values({ id: set.id, name: set.name, public_pim_field_set: set.isPublic, owner_id: set.ownerId })
      .execute();
  }

  async updateSet(id: string, changes: { name: string; isPublic: boolean }): Promise<void> {
    await this.db
      .updateTable('pim_field_set')
      .set({ name: changes.name, public_pim_field_set: changes.isPublic, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the set; its fields, select values and every stored record and value go with it (cascade). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('pim_field_set').where('id', '=', id).execute();
  }

  /**
   * Makes the set's fields exactly `fields`: the others are deleted with their stored values,
   * kept ones are rewritten, new ones inserted. Positions may be reordered freely: their unique
   * constraint is checked at commit. Run inside `transaction`.
   */
  async writeFields(setId: string, fields: PlannedField[]): Promise<void> {
    const keep = fields.filter((f) => !f.isNew).map((f) => f.id);
    let removed = this.db.deleteFrom('pim_field').where('field_set_id', '=', setId);
    if (keep.length) removed = removed.where('id', 'not in', keep);
    await removed.execute();
    for (const field of fields) {
      const columns = {
        position: field.position,
        label: field.label,
        name: field.name,
        description: field.description,
        type: field.type,
        copy_value: field.copyValue,
      };
      if (field.isNew) {
        await this.db.insertInto('pim_field').values({ id: field.id, field_set_id: setId, ...columns }).execute();
      } else {
        await this.db.updateTable('pim_field').set(columns).where('id', '=', field.id).execute();
        if (field.typeChanged) await this.db.deleteFrom('metadata_value').where('field_id', '=', field.id).execute();
      }
      await this.writeOptions(field);
    }
  }

  /**
   * Makes the field's select values exactly `field.options`. Stored values follow a renamed value;
   * values no longer offered are removed, so every stored value of a select field is one of its values.
   */
  private async writeOptions(field: PlannedField): Promise<void> {
    const keep = field.options.filter((o) => !o.isNew).map((o) => o.id);
    let removed = this.db.deleteFrom('pim_field_option').where('field_id', '=', field.id);
    if (keep.length) removed = removed.where('id', 'not in', keep);
    await removed.execute();
    // A select field may have hundreds of values: one statement for the new ones, one for the kept ones.
    const placed = field.options.map((option, position) => ({ ...option, position }));
    const added = placed.filter((o) => o.isNew);
    if (added.length) {
      await this.db
        .insertInto('pim_field_option')
        .values(added.map((o) => ({ id: o.id, field_id: field.id, position: o.position, value: o.value })))
        .execute();
    }
    const kept = placed.filter((o) => !o.isNew);
    if (kept.length) {
      const rows = sql.join(kept.map((o) => sql`(${o.id}::uuid, ${o.position}::integer, ${o.value}::text)`));
      await sql`update pim_field_option o set position = m.position, value = m.value
        from (values ${rows}) as m(id, position, value) where o.id = m.id`.execute(this.db);
    }
    if (field.isNew || field.type !== 'select') return;
    const renames = field.options.filter((o) => o.renamedFrom !== null);
    if (renames.length) {
      // One statement, so swapped values (a → b, b → a) each move once.
      const pairs = sql.join(renames.map((o) => sql`(${o.renamedFrom}, ${o.value})`));
      await sql`update metadata_value v set value = m.renamed from (values ${pairs}) as m(previous, renamed)
        where v.field_id = ${field.id} and v.value = m.previous`.execute(this.db);
    }
    const offered = field.options.map((o) => o.value);
    await this.db.deleteFrom('metadata_value').where('field_id', '=', field.id).where('value', 'not in', offered).execute();
  }

  /** A page of the sets in `scope` whose name contains `filter` (any case), by name. */
  autocomplete(scope: VisibilityScope, q: { filter: string; skip: number; limit: number }): Promise<{ id: string; name: string }[]> {
    let query = this.db.selectFrom('pim_field_set as fs').select(['fs.id', 'fs.name']).where(visibleFieldSets(scope, 'fs'));
    if (q.filter) query = query.where(containsText('fs.name', q.filter));
    return query.orderBy(sql`lower(fs.name)`).orderBy('fs.id').offset(q.skip).limit(q.limit).execute();
  }

  /** A page of the set's fields whose label or name contains `filter` (any case), in the set's order. */
  fieldAutocomplete(
    setId: string,
    q: { filter: string; skip: number; limit: number },
  ): Promise<{ id: string; name: string; label: string; type: string }[]> {
    let query = this.db.selectFrom('pim_field').select(['id', 'name', 'label', 'type']).where('field_set_id', '=', setId);
    if (q.filter) {
      query = query.where((eb) => eb.or([containsText('label', q.filter), containsText('name', q.filter)]));
    }
    return query.orderBy('position').offset(q.skip).limit(q.limit).execute();
  }

  private async optionsOf(fieldIds: string[]): Promise<Map<string, FieldOptionRecord[]>> {
    const byField = new Map<string, FieldOptionRecord[]>();
    if (fieldIds.length === 0) return byField;
    const rows = await this.db
      .selectFrom('pim_field_option')
      .select(['id', 'field_id', 'value', 'created_at'])
      .where('field_id', 'in', fieldIds)
      .orderBy('field_id')
      .orderBy('position')
      .execute();
    for (const r of rows) {
      const list = byField.get(r.field_id) ?? [];
      list.push({ id: r.id, value: r.value, createdAt: r.created_at });
      byField.set(r.field_id, list);
    }
    return byField;
  }
}

type SetRow = Awaited<ReturnType<ReturnType<FieldSetRepository['selectSets']>['executeTakeFirstOrThrow']>>;

function toSetRecord(r: SetRow): FieldSetRecord {
  return {
    id: r.id,
    name: r.name,
    isPublic: r.public_pim_field_set,
    owner: r.owner_id && r.owner_name !== null ? { id: r.owner_id, name: r.owner_name } : null,
    fieldCount: Number(r.field_count ?? 0),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
