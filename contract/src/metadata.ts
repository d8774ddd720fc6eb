import { z } from 'zod';
import { namedRefSchema, typeaheadPage, typeaheadQuery } from './common.js';

/** Spec part 2 §5 and §9: a field set's name and every text of a field are at most 255 characters. */
export const FIELD_TEXT_MAX = 255;
/** Longest value of a 'text' field, and of a 'notes' field (multi-line). */
export const METADATA_TEXT_VALUE_MAX = 2000;
export const METADATA_NOTES_VALUE_MAX = 50_000;
/** The longest image or dataset (manifest) URI a value is stored under. */
export const METADATA_URI_MAX = 2000;
/** At most this many fields in one set, and values in one select field. */
export const FIELD_SET_FIELDS_MAX = 200;
export const SELECT_VALUES_MAX = 500;
export const FIELD_SET_AUTOCOMPLETE_PAGE_SIZE = 20;
/** The name of the CSV download of `GET pim/metadata/{uri}/{fieldsetid}/export` (spec part 1 §9). */
export const METADATA_CSV_FILE_NAME = 'metadata.csv';

/** The types of a field (`GET pim/metadata/fieldtypes`), in the spec's order. */
export const METADATA_FIELD_TYPES = ['checkbox', 'date', 'documentimage', 'numeric', 'pimuser', 'script', 'select', 'text', 'notes'] as const;
export const metadataFieldTypeSchema = z.enum(METADATA_FIELD_TYPES, {
  error: () => `The type must be one of ${METADATA_FIELD_TYPES.join(', ')}.`,
});
export type MetadataFieldType = z.infer<typeof metadataFieldTypeSchema>;

/** The options of a field of type 'script' (spec part 1 §3). */
export const SCRIPT_TYPES = [
  'Caroline', 'Cursiva', 'Humanistic', 'Humanistic_Cursive', 'Hybrida', 'Uncial', 'Praegothica',
  'Southern_Textualis', 'Half_uncial', 'Semihybrida', 'Semitextualis', 'Textualis',
] as const;

/**
 * Every field set starts with these two fields, in this order: 'uri' holds the IIIF service id of
 * the annotated image, 'Dataset uri' the manifest it belongs to. Their label, name and type are fixed
 * and they cannot be removed.
 */
export const FIXED_FIELDS = [
  { label: 'uri', name: 'uri', type: 'text' },
  { label: 'Dataset uri', name: 'datasetUri', type: 'text' },
] as const satisfies readonly { label: string; name: string; type: MetadataFieldType }[];
export const URI_FIELD_NAME = FIXED_FIELDS[0].name;
export const DATASET_URI_FIELD_NAME = FIXED_FIELDS[1].name;

/** A text of a set or field: trimmed, at most 255 characters; `missing` is the message when it is required and empty. */
const fieldText = (subject: string, missing?: string) => {
  const text = z.string().trim();
  return (missing ? text.min(1, missing) : text).max(FIELD_TEXT_MAX, `${subject} can be at most ${FIELD_TEXT_MAX} characters long.`);
};

/** One value of a select field's list. */
export const selectValueSchema = z.object({
  uuid: z.uuid(),
  value: z.string(),
  created: z.iso.datetime(),
});
export type SelectValue = z.infer<typeof selectValueSchema>;

/** A field of a set as the server presents it. `id` is the field's identifier in stored values (the same as uuid). */
export const pimFieldSchema = z.object({
  uuid: z.uuid(),
  id: z.uuid(),
  label: z.string(),
  name: z.string(),
  description: z.string(),
  type: metadataFieldTypeSchema,
  copyValue: z.boolean().describe('the value is kept when the annotator moves to another image'),
  possibleValues: z.array(selectValueSchema).describe('only for type select'),
});
export type PimField = z.infer<typeof pimFieldSchema>;

export const pimFieldSetSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  publicPimFieldSet: z.boolean(),
  owner: namedRefSchema.nullable(),
  /** Whether the caller may change or delete the set (its owner, or an admin). */
  editable: z.boolean(),
  fields: z.array(pimFieldSchema),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type PimFieldSet = z.infer<typeof pimFieldSetSchema>;

/** A row of `GET pim/pimfieldset/?onlyOwnData=`. */
export const pimFieldSetSummarySchema = pimFieldSetSchema.omit({ fields: true }).extend({ fieldCount: z.number().int() });
export type PimFieldSetSummary = z.infer<typeof pimFieldSetSummarySchema>;
export const pimFieldSetListSchema = z.array(pimFieldSetSummarySchema);

/** A field as the edit form sends it: a field without uuid is new; one with a uuid keeps its stored values. */
export const pimFieldInputSchema = z.object({
  uuid: z.uuid().optional(),
  label: fieldText('A field label', 'Give every field a label.'),
  name: fieldText('A field name', 'Give every field a name.'),
  description: fieldText('A field description').default(''),
  type: metadataFieldTypeSchema,
  copyValue: z.boolean().default(false),
  possibleValues: z
    .array(z.object({ uuid: z.uuid().optional(), value: fieldText('A value of a select field', 'A select field cannot have an empty value.') }))
    .max(SELECT_VALUES_MAX, `A select field can have at most ${SELECT_VALUES_MAX} values.`)
    .default([]),
});
export type PimFieldInput = z.input<typeof pimFieldInputSchema>;

/**
 * `POST pim/pimfieldset/create` and `POST pim/pimfieldset/{uuid}/update`: the whole set, fields in
 * order. The edit form validates with this same schema.
 */
export const savePimFieldSetRequestSchema = z
  .object({
    uuid: z.uuid().optional(),
    name: fieldText('A field set name', 'Give the field set a name.'),
    publicPimFieldSet: z.boolean().default(false),
    fields: z.array(pimFieldInputSchema).max(FIELD_SET_FIELDS_MAX, `A field set can have at most ${FIELD_SET_FIELDS_MAX} fields.`),
  })
  .superRefine((set, ctx) => {
    FIXED_FIELDS.forEach((fixed, index) => {
      const field = set.fields[index];
      if (!field || field.label !== fixed.label || field.name !== fixed.name || field.type !== fixed.type) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index],
          message: `Field ${index + 1} must be '${fixed.name}' (label '${fixed.label}', type ${fixed.type}): the first two fields of a set are fixed.`,
        });
      }
    });
    const seen = new Set<string>();
    set.fields.forEach((field, index) => {
      const key = field.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['fields', index, 'name'], message: `Two fields are named '${field.name}': field names must be unique in a set.` });
      seen.add(key);
      if (field.type === 'select') {
        if (field.possibleValues.length === 0) {
          ctx.addIssue({ code: 'custom', path: ['fields', index, 'possibleValues'], message: `The select field '${field.label}' needs at least one value.` });
        }
        const values = new Set<string>();
        field.possibleValues.forEach((option, valueIndex) => {
          if (values.has(option.value)) {
            ctx.addIssue({ code: 'custom', path: ['fields', index, 'possibleValues', valueIndex, 'value'], message: `The select field '${field.label}' lists '${option.value}' twice.` });
          }
          values.add(option.value);
        });
      }
    });
  });
export type SavePimFieldSetRequest = z.input<typeof savePimFieldSetRequestSchema>;
export type SavePimFieldSet = z.output<typeof savePimFieldSetRequestSchema>;

/** A new set as the edit form starts it: the two fixed fields. */
export function newPimFieldSet(): SavePimFieldSet {
  return {
    name: '',
    publicPimFieldSet: false,
    fields: FIXED_FIELDS.map((field) => ({ ...field, description: '', copyValue: false, possibleValues: [] })),
  };
}

export const fieldSetParams = z.object({ uuid: z.uuid('The field set id must be a UUID.') });
export const fieldSetAutocompleteQuery = typeaheadQuery;
export const fieldSetAutocompleteResponseSchema = typeaheadPage(namedRefSchema);
/** `GET pim/pimfieldset/{id}/pimfields/autocomplete`: the fields of one set. */
export const pimFieldRefSchema = z.object({ uuid: z.uuid(), name: z.string(), label: z.string(), type: metadataFieldTypeSchema });
export const pimFieldAutocompleteResponseSchema = typeaheadPage(pimFieldRefSchema);
export const fieldTypesResponseSchema = z.array(metadataFieldTypeSchema);

// ---- Stored values -------------------------------------------------------------------------

/** What a field's value may be sent as; it is stored as text (see normaliseMetadataValue). */
export const metadataValueInputSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type MetadataValueInput = z.infer<typeof metadataValueInputSchema>;

/** The longest dataset name (a manifest's label) stored with a value; the annotator cuts longer labels. */
export const DATASET_NAME_MAX = FIELD_TEXT_MAX * 4;

/**
 * `POST pim/metadata/create`: the annotator's form, every field with its value. The set is the one
 * the fields belong to; 'uri' and 'Dataset uri' say which image of which manifest is described.
 * Other properties of a field (its label, type, …) may be sent along and are ignored.
 */
export const createMetadataRequestSchema = z.object({
  fields: z
    .array(z.object({ id: z.uuid('Every field needs the id of a field of the set.'), value: metadataValueInputSchema.optional() }))
    .min(1, 'Send the fields of the form.')
    .max(FIELD_SET_FIELDS_MAX),
  /** The manifest's label, shown in the annotated datasets; our own sets use the set's name. */
  datasetName: z.string().trim().max(DATASET_NAME_MAX).optional(),
});
export type CreateMetadataRequest = z.infer<typeof createMetadataRequestSchema>;

/**
 * One stored value (spec part 1 §3 "Stored metadata value"). `display` is how a person reads it:
 * the user's name for a pimuser field, the image's name for a documentimage field, else the value.
 */
export const storedMetadataValueSchema = z.object({
  field: z.object({ id: z.uuid() }),
  value: z.string(),
  display: z.string(),
});
export type StoredMetadataValue = z.infer<typeof storedMetadataValueSchema>;
export const storedMetadataSchema = z.array(storedMetadataValueSchema);

export const getMetadataQuery = z.object({
  uri: z.string().trim().min(1, 'Say which image: uri is missing.').max(METADATA_URI_MAX),
  fieldsetid: z.uuid('fieldsetid must be the UUID of a field set.'),
});
export const getFieldsQuery = z.object({ id: z.uuid('id must be the UUID of a field set.') });

/** `GET pim/metadata/{uri}/{fieldsetid}` and its CSV export: the dataset (manifest) uri, URL-encoded. */
export const metadataOverviewParams = z.object({
  uri: z.string().min(1).max(METADATA_URI_MAX),
  fieldsetid: z.uuid('fieldsetid must be the UUID of a field set.'),
});
/** Spec part 1 §3 "Metadata overview response": one row per annotated image, keyed by field name. */
export const metadataOverviewSchema = z.object({
  fields: z.array(z.string()).describe('the field names, in the order of the set: the columns'),
  labels: z.array(z.string()).describe('the field labels, in the same order'),
  data: z.array(z.record(z.string(), z.string())),
});
export type MetadataOverview = z.infer<typeof metadataOverviewSchema>;

/** `GET pim/metadata/annotateddatasets?onlyOwnData=`. */
export const annotatedDatasetSchema = z.object({ datasetUri: z.string(), datasetName: z.string() });
export type AnnotatedDataset = z.infer<typeof annotatedDatasetSchema>;
export const annotatedDatasetListSchema = z.array(annotatedDatasetSchema);
export const annotatedDatasetParams = z.object({ datasetUri: z.string().min(1).max(METADATA_URI_MAX) });
/** `GET pim/metadata/annotateddatasets/{datasetUri}`: the annotated images of a dataset with their field sets. */
export const annotatedImageSchema = z.object({
  uri: z.string(),
  label: z.string().nullable().describe("our image's label when the uri names one of our images the caller may read; null for other images"),
  fieldSets: z.array(namedRefSchema),
});
export type AnnotatedImage = z.infer<typeof annotatedImageSchema>;
export const annotatedImageListSchema = z.array(annotatedImageSchema);

// ---- Checking a value against its field ----------------------------------------------------

export type ValueCheck = { ok: true; value: string | null } | { ok: false; message: string };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The text a value is stored as, or why the field cannot take it. Empty (null, '' or only spaces)
 * means no value. Used by the server before it writes and by the annotator form as the user types.
 * pimuser and documentimage values are UUIDs; whether that user or image exists is the server's check.
 */
export function normaliseMetadataValue(
  field: Pick<PimField, 'label' | 'type'> & { possibleValues: readonly { value: string }[] },
  raw: MetadataValueInput | undefined,
): ValueCheck {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  const text = typeof raw === 'string' ? raw : String(raw);
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const label = field.label;
  switch (field.type) {
    case 'checkbox':
      if (trimmed === 'true' || trimmed === 'false') return { ok: true, value: trimmed };
      return { ok: false, message: `'${label}' is a checkbox: its value is true or false.` };
    case 'numeric': {
      const number = typeof raw === 'number' ? raw : Number(trimmed);
      if (!Number.isFinite(number) || (typeof raw === 'string' && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed))) {
        return { ok: false, message: `'${label}' takes a number, not '${text}'.` };
      }
      return { ok: true, value: String(number) };
    }
    case 'date':
      if (isCalendarDate(trimmed)) return { ok: true, value: trimmed };
      return { ok: false, message: `'${label}' takes a date as YYYY-MM-DD, not '${text}'.` };
    case 'select':
      if (field.possibleValues.some((option) => option.value === text)) return { ok: true, value: text };
      return { ok: false, message: `'${text}' is not one of the values of '${label}'.` };
    case 'script':
      if ((SCRIPT_TYPES as readonly string[]).includes(trimmed)) return { ok: true, value: trimmed };
      return { ok: false, message: `'${text}' is not a script type; choose one of ${SCRIPT_TYPES.join(', ')}.` };
    case 'pimuser':
      if (UUID.test(trimmed)) return { ok: true, value: trimmed.toLowerCase() };
      return { ok: false, message: `'${label}' takes a user: choose one in the picker.` };
    case 'documentimage':
      if (UUID.test(trimmed)) return { ok: true, value: trimmed.toLowerCase() };
      return { ok: false, message: `'${label}' takes an image: choose one in the picker.` };
    case 'notes':
      if (text.length > METADATA_NOTES_VALUE_MAX) return { ok: false, message: `'${label}' can be at most ${METADATA_NOTES_VALUE_MAX} characters long.` };
      return { ok: true, value: text };
    case 'text':
      if (text.length > METADATA_TEXT_VALUE_MAX) return { ok: false, message: `'${label}' can be at most ${METADATA_TEXT_VALUE_MAX} characters long.` };
      return { ok: true, value: text };
  }
}
