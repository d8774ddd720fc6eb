import type { PimField, PimFieldSet, PimFieldSetSummary } from '@pim/contract';
import type { FieldRecord } from './repository.js';
import type { FieldSetDetail, FieldSetView } from './service.js';

/** A row of the field set list: the set without its fields. */
export function presentFieldSetSummary({ set, editable }: FieldSetView): PimFieldSetSummary {
  return {
    uuid: set.id,
    name: set.name,
    publicPimFieldSet: set.isPublic,
    owner: set.owner && { uuid: set.owner.id, name: set.owner.name },
    editable,
    created: set.createdAt.toISOString(),
    updated: set.updatedAt.toISOString(),
    fieldCount: set.fieldCount,
  };
}

export function presentFieldSet({ set, editable, fields }: FieldSetDetail): PimFieldSet {
  const { fieldCount: _count, ...summary } = presentFieldSetSummary({ set, editable });
  return { ...summary, fields: fields.map(presentField) };
}

/** A field; `id` repeats `uuid` because stored values name their field by `id` (spec part 1 §3). */
export function presentField(field: FieldRecord): PimField {
  return {
    uuid: field.id,
    id: field.id,
    label: field.label,
    name: field.name,
    description: field.description,
    type: field.type,
    copyValue: field.copyValue,
    possibleValues: field.options.map((o) => ({ uuid: o.id, value: o.value, created: o.createdAt.toISOString() })),
  };
}
