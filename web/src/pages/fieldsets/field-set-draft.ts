import {
  FIXED_FIELDS,
  newPimFieldSet,
  savePimFieldSetRequestSchema,
  type MetadataFieldType,
  type PimFieldSet,
  type SavePimFieldSet,
  type SavePimFieldSetRequest,
} from '@pim/contract';

/**
 * The edit form's state: the save request plus a `key` per field and per select value, so React
 * keeps each card's inputs (and focus) while fields are added, removed and moved. A `uuid` means
 * the server already has the field or value; sending it back keeps its stored values.
 */
export interface DraftValue {
  key: string;
  uuid?: string;
  value: string;
}

export interface DraftField {
  key: string;
  uuid?: string;
  label: string;
  name: string;
  description: string;
  type: MetadataFieldType;
  copyValue: boolean;
  possibleValues: DraftValue[];
}

export interface FieldSetDraft {
  uuid?: string;
  name: string;
  publicPimFieldSet: boolean;
  fields: DraftField[];
}

/** Messages of the save schema, keyed by their path ('name', 'fields.3.label', 'fields.3.possibleValues.0.value'). */
export type DraftErrors = Readonly<Record<string, string>>;

export type DraftCheck = { ok: true; request: SavePimFieldSet } | { ok: false; errors: DraftErrors };

let lastKey = 0;
/** Keys only need to be unique within the page; saved fields and values use their uuid. */
function newKey(): string {
  lastKey += 1;
  return `new-${lastKey}`;
}

/** The first two fields (uri, Dataset uri) keep their label, name and type and are never removed or moved. */
export function isFixedField(index: number): boolean {
  return index < FIXED_FIELDS.length;
}

/** A new set: the two fixed fields of the contract's `newPimFieldSet()`. */
export function draftOfNewSet(): FieldSetDraft {
  const set = newPimFieldSet();
  return {
    name: set.name,
    publicPimFieldSet: set.publicPimFieldSet,
    fields: set.fields.map((field) => ({
      key: newKey(),
      label: field.label,
      name: field.name,
      description: field.description,
      type: field.type,
      copyValue: field.copyValue,
      possibleValues: [],
    })),
  };
}

/** A saved set as the server presents it. */
export function draftOf(set: PimFieldSet): FieldSetDraft {
  return {
    uuid: set.uuid,
    name: set.name,
    publicPimFieldSet: set.publicPimFieldSet,
    fields: set.fields.map((field) => ({
      key: field.uuid,
      uuid: field.uuid,
      label: field.label,
      name: field.name,
      description: field.description,
      type: field.type,
      copyValue: field.copyValue,
      possibleValues: field.possibleValues.map((option) => ({ key: option.uuid, uuid: option.uuid, value: option.value })),
    })),
  };
}

/** The request body: a value list only for select fields (a field switched away from select drops its values). */
export function toSaveRequest(draft: FieldSetDraft): SavePimFieldSetRequest {
  return {
    uuid: draft.uuid,
    name: draft.name,
    publicPimFieldSet: draft.publicPimFieldSet,
    fields: draft.fields.map((field) => ({
      uuid: field.uuid,
      label: field.label,
      name: field.name,
      description: field.description,
      type: field.type,
      copyValue: field.copyValue,
      possibleValues: field.type === 'select' ? field.possibleValues.map((option) => ({ uuid: option.uuid, value: option.value })) : [],
    })),
  };
}

/** Validates with the server's own schema; on failure the first message of every path. */
export function checkDraft(draft: FieldSetDraft): DraftCheck {
  const result = savePimFieldSetRequestSchema.safeParse(toSaveRequest(draft));
  if (result.success) return { ok: true, request: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

function emptyValue(): DraftValue {
  return { key: newKey(), value: '' };
}

/** Appends a text field; returns the new draft and the new field's key (to focus it). */
export function addField(draft: FieldSetDraft): { draft: FieldSetDraft; key: string } {
  const field: DraftField = { key: newKey(), label: '', name: '', description: '', type: 'text', copyValue: false, possibleValues: [] };
  return { draft: { ...draft, fields: [...draft.fields, field] }, key: field.key };
}

export function removeField(draft: FieldSetDraft, index: number): FieldSetDraft {
  if (isFixedField(index)) return draft;
  return { ...draft, fields: draft.fields.filter((_, i) => i !== index) };
}

/** Swaps a field with its neighbour; nothing moves into or out of the fixed first places. */
export function moveField(draft: FieldSetDraft, index: number, offset: -1 | 1): FieldSetDraft {
  const target = index + offset;
  if (isFixedField(index) || isFixedField(target) || target >= draft.fields.length) return draft;
  const fields = [...draft.fields];
  [fields[index], fields[target]] = [fields[target]!, fields[index]!];
  return { ...draft, fields };
}

export type FieldChange = Partial<Pick<DraftField, 'label' | 'name' | 'description' | 'type' | 'copyValue'>>;

/** Changes a field; a field that becomes a select without values gets an empty one to fill in. */
export function updateField(draft: FieldSetDraft, index: number, change: FieldChange): FieldSetDraft {
  return mapField(draft, index, (field) => {
    const next = { ...field, ...change };
    if (next.type === 'select' && next.possibleValues.length === 0) next.possibleValues = [emptyValue()];
    return next;
  });
}

/** Appends an empty value to a select field; returns its key (to focus it). */
export function addValue(draft: FieldSetDraft, index: number): { draft: FieldSetDraft; key: string } {
  const value = emptyValue();
  return { draft: mapField(draft, index, (field) => ({ ...field, possibleValues: [...field.possibleValues, value] })), key: value.key };
}

export function updateValue(draft: FieldSetDraft, index: number, valueIndex: number, value: string): FieldSetDraft {
  return mapField(draft, index, (field) => ({
    ...field,
    possibleValues: field.possibleValues.map((option, i) => (i === valueIndex ? { ...option, value } : option)),
  }));
}

export function removeValue(draft: FieldSetDraft, index: number, valueIndex: number): FieldSetDraft {
  return mapField(draft, index, (field) => ({ ...field, possibleValues: field.possibleValues.filter((_, i) => i !== valueIndex) }));
}

function mapField(draft: FieldSetDraft, index: number, change: (field: DraftField) => DraftField): FieldSetDraft {
  return { ...draft, fields: draft.fields.map((field, i) => (i === index ? change(field) : field)) };
}
