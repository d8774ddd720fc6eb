import {
  createJobRequestSchema,
  modelAutocompleteResponseSchema,
  namedRefSchema,
  searchIndexSchema,
  type JobField,
  type P2palaOptionList,
} from '@pim/contract';
import { z } from 'zod';

/** A record picked in a Typeahead: its autocomplete address and the shape of one suggestion. */
export interface RefInput {
  kind: 'ref';
  url: string;
  itemSchema: z.ZodType<{ uuid: string; name: string }>;
}

/**
 * How the form asks for each field of the creation payload. Ranges, whole numbers and the choices
 * of fixed lists are read from the contract's schema, so they are stated once.
 */
export type FieldInput =
  | RefInput
  | { kind: 'text'; multiline?: boolean; type?: 'email' | 'url' }
  | { kind: 'switch' }
  | { kind: 'number'; step?: number }
  /** A choice from the server's P2PaLA option list, or from the schema's enum. */
  | { kind: 'select'; list?: P2palaOptionList }
  /** Metadata fields of a field set: many (`pimFieldUuids`) or one (`pimFieldSiameseLabel`). */
  | { kind: 'pimFields'; many: boolean };

const modelItem = modelAutocompleteResponseSchema.shape.results.element;
const model = (path: string): RefInput => ({ kind: 'ref', url: `pim/${path}/autocomplete`, itemSchema: modelItem });
const text = { kind: 'text' } as const;
const on = { kind: 'switch' } as const;
const count = { kind: 'number' } as const;
const fraction = { kind: 'number', step: 0.01 } as const;
const rate = { kind: 'number', step: 0.0001 } as const;

export const FIELD_INPUTS: Record<JobField, FieldInput> = {
  imageSet: { kind: 'ref', url: 'pim/documentimageset/autocomplete', itemSchema: namedRefSchema },
  allData: on,
  uri: { kind: 'text', type: 'url' },
  elasticSearchIndex: { kind: 'ref', url: 'pim/elasticsearchindex/autocomplete', itemSchema: searchIndexSchema },
  outputPath: text,
  baseOutputFileName: text,
  tesseract4model: model('tesseract4model'),
  krakenModel: model('krakenmodel'),
  notificationEmail: { kind: 'text', type: 'email' },
  dropout: fraction,
  learningRate: rate,
  siameseBatchSize: count,
  imgWidth: count,
  imgHeight: count,
  training: on,
  siameseNetworkModelId: model('siamesenetworkmodel'),
  exp_name: text,
  work_dir: text,
  log_level: { kind: 'select', list: 'loglevel' },
  num_workers: count,
  img_size: text,
  line_color: count,
  line_width: count,
  regions: text,
  merge_regions: text,
  approx_alg: { kind: 'select', list: 'approxalg' },
  num_segments: count,
  p2PaLaBatchSize: count,
  input_channels: count,
  out_mode: { kind: 'select', list: 'outmode' },
  net_out_type: { kind: 'select' },
  cnn_ngf: count,
  loss_lambda: count,
  g_loss: { kind: 'select' },
  adam_lr: rate,
  adam_beta1: fraction,
  adam_beta2: { kind: 'number', step: 0.001 },
  do_train: on,
  cont_train: on,
  tr_data: text,
  do_val: on,
  val_data: text,
  do_test: on,
  te_data: text,
  do_prod: on,
  prod_data: text,
  epochs: count,
  use_gan: on,
  gan_layers: count,
  max_vertex: count,
  e_stdv: { kind: 'number', step: 0.5 },
  p2palamodel: model('p2palamodel'),
  extract_lines: on,
  priority: count,
  pimFieldUuids: { kind: 'pimFields', many: true },
  networkSpec: { kind: 'text', multiline: true },
  pimFieldSiameseLabel: { kind: 'pimFields', many: false },
  siameseChannels: count,
  siameseBinarizeOtsu: on,
  siameseBulk: on,
};

/**
 * The form's parts in the order it shows them; a part shows the fields of the chosen type that are
 * in it. `technical`: the fields are a tool's parameters, each shown with its name in the payload.
 */
export const FORM_SECTIONS: readonly { key: string; technical: boolean; fields: readonly JobField[] }[] = [
  {
    key: 'job',
    technical: false,
    fields: ['imageSet', 'uri', 'elasticSearchIndex', 'tesseract4model', 'krakenModel', 'p2palamodel', 'siameseNetworkModelId', 'allData', 'outputPath', 'baseOutputFileName', 'notificationEmail'],
  },
  { key: 'metadata', technical: false, fields: ['pimFieldUuids', 'pimFieldSiameseLabel'] },
  { key: 'run', technical: true, fields: ['exp_name', 'work_dir', 'log_level', 'num_workers', 'extract_lines'] },
  { key: 'page', technical: true, fields: ['img_size', 'line_color', 'line_width', 'regions', 'merge_regions', 'approx_alg', 'num_segments', 'max_vertex', 'e_stdv'] },
  {
    key: 'network',
    technical: true,
    fields: ['p2PaLaBatchSize', 'input_channels', 'out_mode', 'net_out_type', 'cnn_ngf', 'loss_lambda', 'g_loss', 'adam_lr', 'adam_beta1', 'adam_beta2', 'use_gan', 'gan_layers', 'epochs'],
  },
  { key: 'data', technical: true, fields: ['do_train', 'cont_train', 'tr_data', 'do_val', 'val_data', 'do_test', 'te_data', 'do_prod', 'prod_data'] },
  {
    key: 'siamese',
    technical: true,
    fields: ['training', 'networkSpec', 'dropout', 'learningRate', 'siameseBatchSize', 'imgWidth', 'imgHeight', 'siameseChannels', 'siameseBinarizeOtsu', 'siameseBulk'],
  },
  { key: 'queue', technical: false, fields: ['priority'] },
];

/** The schema of one field without its default or optionality. */
function innerSchema(field: JobField): z.ZodType {
  let schema: z.ZodType = createJobRequestSchema.shape[field];
  while (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
  return schema;
}

const finite = (value: number | null) => (value !== null && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);

/** A number field's range and whether it takes whole numbers only, as the contract checks them (spec part 2 §5). */
export function numberLimits(field: JobField): { min?: number; max?: number; integer: boolean } {
  const schema = innerSchema(field);
  if (!(schema instanceof z.ZodNumber)) throw new Error(`${field} is not a number in the job payload`);
  return { min: finite(schema.minValue), max: finite(schema.maxValue), integer: schema.isInt };
}

/** The choices of a field the contract fixes (net_out_type, g_loss, and the P2PaLA lists before the server's arrive). */
export function enumOptions(field: JobField): string[] {
  const schema = innerSchema(field);
  if (!(schema instanceof z.ZodEnum)) throw new Error(`${field} is not a choice in the job payload`);
  return schema.options.map(String);
}
