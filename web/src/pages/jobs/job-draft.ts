import {
  createJobRequestSchema,
  JOB_DEFAULTS,
  JOB_FIELDS,
  JOB_TYPE_INFO,
  missingJobFields,
  type CreateJobInput,
  type JobField,
  type JobType,
  type NamedRef,
  type pimFieldRefSchema,
} from '@pim/contract';
import type { z } from 'zod';
import { fieldErrors } from '../../components/field-errors';
import { FIELD_INPUTS, type FieldInput } from './job-field-inputs';

export type PimFieldRef = z.infer<typeof pimFieldRefSchema>;

/**
 * What a form field holds: a picked record, the picked metadata fields, text, a switch, a choice,
 * or a number as Mantine's NumberInput gives it ('' while empty, text while half typed).
 */
export type DraftValue = NamedRef | PimFieldRef | PimFieldRef[] | string | number | boolean | null;

export interface JobDraft {
  jobType: JobType | null;
  values: Record<JobField, DraftValue>;
  /** The field set whose fields the metadata pickers offer; not sent itself. */
  fieldSet: NamedRef | null;
}

function initialValue(field: JobField, input: FieldInput): DraftValue {
  if (field in JOB_DEFAULTS) return JOB_DEFAULTS[field as keyof typeof JOB_DEFAULTS];
  if (input.kind === 'pimFields') return input.many ? [] : null;
  if (input.kind === 'number') return '';
  if (input.kind === 'text') return '';
  return null;
}

/** A new form: every field with the spec's default (part 2 §9) or empty; the set when the address names one. */
export function newJobDraft(imageSet: NamedRef | null = null): JobDraft {
  const values = Object.fromEntries(JOB_FIELDS.map((field) => [field, initialValue(field, FIELD_INPUTS[field])])) as Record<JobField, DraftValue>;
  return { jobType: null, values: { ...values, imageSet }, fieldSet: null };
}

/** The fields the chosen type's form shows: its own and the priority every job has. */
export function fieldsOf(jobType: JobType): JobField[] {
  return [...JOB_TYPE_INFO[jobType].fields, 'priority'];
}

const isRef = (value: DraftValue): value is NamedRef => typeof value === 'object' && value !== null && !Array.isArray(value);

function payloadValue(input: FieldInput, value: DraftValue): unknown {
  switch (input.kind) {
    case 'ref':
      return isRef(value) ? value.uuid : undefined;
    case 'pimFields':
      if (Array.isArray(value)) return value.length > 0 ? value.map((field) => field.uuid) : undefined;
      return isRef(value) ? value.uuid : undefined;
    case 'text':
      // A blank text is left out: the server then takes the default, which the field shows as its placeholder.
      return typeof value === 'string' && value.trim() === '' ? undefined : value;
    case 'number':
      if (typeof value !== 'string') return value;
      // Empty is null, which the contract answers with '… must be a number.' rather than quietly taking a default.
      if (value.trim() === '') return null;
      return Number.isFinite(Number(value)) ? Number(value) : value;
    default:
      return value;
  }
}

/** The request of the chosen type: exactly the fields its form shows, as the payload names them. */
export function jobRequest(draft: JobDraft & { jobType: JobType }): CreateJobInput {
  const request: Record<string, unknown> = { jobType: draft.jobType };
  for (const field of fieldsOf(draft.jobType)) {
    const value = payloadValue(FIELD_INPUTS[field], draft.values[field]);
    if (value !== undefined) request[field] = value;
  }
  return request as CreateJobInput;
}

export interface CheckedDraft {
  request: CreateJobInput;
  /** The contract's message per field that fails its range or shape. */
  errors: Partial<Record<JobField, string>>;
  /** The fields the type needs that are still empty. */
  missing: JobField[];
  valid: boolean;
}

/** The form checked as the server will check it: the contract's schema, and the fields the type needs. */
export function checkDraft(draft: JobDraft & { jobType: JobType }): CheckedDraft {
  const request = jobRequest(draft);
  const errors = fieldErrors(createJobRequestSchema.safeParse(request)) as Partial<Record<JobField, string>>;
  const missing = missingJobFields(request);
  return { request, errors, missing, valid: Object.keys(errors).length === 0 && missing.length === 0 };
}
