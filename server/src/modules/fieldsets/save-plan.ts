import { randomUUID } from 'node:crypto';
import { FIXED_FIELDS, type SavePimFieldSet } from '@pim/contract';
import { badRequest } from '../../platform/errors.js';
import type { FieldRecord, PlannedField, PlannedOption } from './repository.js';

type FieldInput = SavePimFieldSet['fields'][number];

/**
 * What a save of the whole set writes, given the fields it has now (none for a new set). Fields
 * and select values are matched by uuid, so a kept field keeps its stored values; the order of
 * the request is the new order. A uuid that is not one of this set's (or this field's) is refused:
 * it would silently become a new field and lose the values the client thinks it keeps.
 */
export function planFields(current: FieldRecord[], input: SavePimFieldSet['fields']): PlannedField[] {
  const byId = new Map(current.map((f) => [f.id, f]));
  const seen = new Set<string>();
  return input.map((field, position) => {
    const id = field.uuid ?? fixedFieldId(current, position);
    if (id !== undefined) {
      if (seen.has(id)) throw badRequest(`The field id ${id} is sent twice: every field of a set is sent once.`);
      seen.add(id);
    }
    const existing = id === undefined ? undefined : byId.get(id);
    if (id !== undefined && !existing) {
      throw badRequest(`Field ${position + 1} ('${field.label}') has the id ${id}, which is not a field of this set. Reload the set and try again.`);
    }
    if (existing && position < FIXED_FIELDS.length && existing.position !== position) {
      throw badRequest(`Field ${position + 1} must be the set's own '${FIXED_FIELDS[position]!.name}' field: the first two fields are fixed.`);
    }
    return planField(field, position, existing);
  });
}

/** The fixed fields keep their ids even when a client leaves them out of the request. */
function fixedFieldId(current: FieldRecord[], position: number): string | undefined {
  if (position >= FIXED_FIELDS.length) return undefined;
  return current.find((f) => f.position === position)?.id;
}

function planField(field: FieldInput, position: number, existing: FieldRecord | undefined): PlannedField {
  return {
    id: existing?.id ?? randomUUID(),
    isNew: existing === undefined,
    typeChanged: existing !== undefined && existing.type !== field.type,
    position,
    label: field.label,
    name: field.name,
    description: field.description,
    type: field.type,
    copyValue: field.copyValue,
    options: field.type === 'select' ? planOptions(field, existing) : [],
  };
}

function planOptions(field: FieldInput, existing: FieldRecord | undefined): PlannedOption[] {
  const current = new Map((existing?.type === 'select' ? existing.options : []).map((o) => [o.id, o]));
  const seen = new Set<string>();
  return field.possibleValues.map((option) => {
    if (option.uuid === undefined) return { id: randomUUID(), value: option.value, isNew: true, renamedFrom: null };
    const kept = current.get(option.uuid);
    if (seen.has(option.uuid)) throw badRequest(`The select field '${field.label}' lists the value id ${option.uuid} twice.`);
    if (!kept) {
      throw badRequest(
        `The value '${option.value}' of the select field '${field.label}' has the id ${option.uuid}, ` +
          'which is not a value of that field. Reload the set and try again.',
      );
    }
    seen.add(option.uuid);
    return { id: kept.id, value: option.value, isNew: false, renamedFrom: kept.value === option.value ? null : kept.value };
  });
}
