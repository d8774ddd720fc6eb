import {
  DATASET_NAME_MAX,
  DATASET_URI_FIELD_NAME,
  normaliseMetadataValue,
  URI_FIELD_NAME,
  type CreateMetadataRequest,
  type MetadataValueInput,
  type NamedRef,
  type PimField,
  type StoredMetadataValue,
} from '@pim/contract';

/**
 * What an input of the annotator holds: a checkbox a boolean, a number input a number (or the text
 * of a number being typed), a picker the chosen user or image, every other input its text.
 */
export type FieldValue = string | number | boolean | NamedRef | null;
/** The form's values by field id. */
export type FormValues = Record<string, FieldValue>;

/** What the two fixed fields hold: the current image and the manifest; the user does not type them. */
export interface FixedValues {
  uri: string;
  datasetUri: string;
}

export function fixedValueOf(field: PimField, fixed: FixedValues): string | undefined {
  if (field.name === URI_FIELD_NAME) return fixed.uri;
  if (field.name === DATASET_URI_FIELD_NAME) return fixed.datasetUri;
  return undefined;
}

export const isFixed = (field: PimField) => field.name === URI_FIELD_NAME || field.name === DATASET_URI_FIELD_NAME;

export function emptyValue(field: PimField): FieldValue {
  switch (field.type) {
    case 'checkbox':
      return false;
    case 'pimuser':
    case 'documentimage':
      return null;
    default:
      return '';
  }
}

export function emptyValues(fields: PimField[]): FormValues {
  return Object.fromEntries(fields.filter((field) => !isFixed(field)).map((field) => [field.id, emptyValue(field)]));
}

/** Moving to another image: fields marked copyValue keep what they hold, the others start empty. */
export function carryOver(fields: PimField[], values: FormValues): FormValues {
  const next = emptyValues(fields);
  for (const field of fields) {
    if (field.copyValue && field.id in next && values[field.id] !== undefined) next[field.id] = values[field.id] ?? null;
  }
  return next;
}

function fromStored(field: PimField, entry: StoredMetadataValue): FieldValue {
  switch (field.type) {
    case 'checkbox':
      return entry.value === 'true';
    case 'numeric': {
      const number = Number(entry.value);
      return Number.isFinite(number) ? number : entry.value;
    }
    case 'pimuser':
    case 'documentimage':
      return { uuid: entry.value, name: entry.display || entry.value };
    default:
      return entry.value;
  }
}

/**
 * The stored values of an image over what the form holds. A stored value wins; a field the image
 * has no value for keeps what it holds, which after a move is the carried copyValue value or empty.
 * So an image annotated before shows what was saved for it, and a new image starts from the last
 * one's copyValue fields.
 */
export function withStored(fields: PimField[], values: FormValues, stored: StoredMetadataValue[]): FormValues {
  const next = { ...values };
  for (const entry of stored) {
    const field = fields.find((candidate) => candidate.id === entry.field.id);
    if (!field || isFixed(field) || entry.value.trim() === '') continue;
    next[field.id] = fromStored(field, entry);
  }
  return next;
}

function toInput(value: FieldValue | undefined): MetadataValueInput {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return value.uuid;
  return value;
}

/** Why a field cannot take what it holds, by field id; the same check the server makes before it stores. */
export function fieldErrors(fields: PimField[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (isFixed(field)) continue;
    const check = normaliseMetadataValue(field, toInput(values[field.id]));
    if (!check.ok) errors[field.id] = check.message;
  }
  return errors;
}

/** `POST pim/metadata/create`: every field of the set with its value, the fixed ones from the image and manifest. */
export function saveRequest(fields: PimField[], values: FormValues, fixed: FixedValues, datasetName: string): CreateMetadataRequest {
  const name = datasetName.trim().slice(0, DATASET_NAME_MAX);
  return {
    fields: fields.map((field) => ({ id: field.id, value: fixedValueOf(field, fixed) ?? toInput(values[field.id]) })),
    ...(name ? { datasetName: name } : {}),
  };
}
