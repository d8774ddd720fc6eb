import { z } from 'zod';
import { namedRefSchema } from './common.js';
import { JOB_FIELDS, JOB_TYPE_INFO, type JobField, type JobType, jobTypeSchema, P2PALA_OPTIONS } from './job-types.js';

const int = (name: string, min: number, max?: number) => {
  let schema = z.number({ error: `${name} must be a number.` }).int(`${name} must be a whole number.`).min(min, `${name} must be at least ${min}.`);
  if (max !== undefined) schema = schema.max(max, `${name} must be at most ${max}.`);
  return schema;
};
const num = (name: string) => z.number({ error: `${name} must be a number.` });
const text = (name: string) => z.string().max(1000, `${name} can be at most 1000 characters long.`);

/** The default of every field that has one (spec part 2 §9), as the form fills it in. */
export const JOB_DEFAULTS = {
  priority: 50,
  allData: false,
  dropout: 0,
  learningRate: 0.003,
  siameseBatchSize: 128,
  imgWidth: 120,
  imgHeight: 120,
  training: false,
  exp_name: 'experiment_name',
  work_dir: '/work',
  log_level: 'DEBUG',
  num_workers: 4,
  img_size: '2048 1536',
  line_color: 128,
  line_width: 10,
  regions: 'paragraph marginalia page-number',
  merge_regions: 'paragraph:heading',
  approx_alg: 'optimal',
  num_segments: 4,
  p2PaLaBatchSize: 2,
  input_channels: 3,
  out_mode: 'L',
  net_out_type: 'C',
  cnn_ngf: 64,
  loss_lambda: 100,
  g_loss: 'L1',
  adam_lr: 0.001,
  adam_beta1: 0.5,
  adam_beta2: 0.999,
  do_train: false,
  cont_train: false,
  tr_data: '/data/train/',
  do_val: false,
  val_data: '/data/val/',
  do_test: false,
  te_data: '/data/test/',
  do_prod: true,
  prod_data: '/data/prod/',
  epochs: 200,
  use_gan: true,
  gan_layers: 3,
  max_vertex: 30,
  e_stdv: 6,
  extract_lines: false,
  siameseChannels: 3,
  siameseBinarizeOtsu: false,
  siameseBulk: false,
} as const;

/**
 * `POST pim/jobs`: `{imageSet, jobType}` or the full payload (spec part 2 §3). Absent fields take
 * their defaults; ranges are those of §5. Which fields a type needs is checked by the server
 * with `JOB_TYPE_INFO` (and by the form before it sends).
 */
export const createJobRequestSchema = z.object({
  jobType: jobTypeSchema,
  imageSet: z.uuid('The image set must be given by its uuid.').optional(),
  allData: z.boolean().default(JOB_DEFAULTS.allData),
  uri: z.url({ protocol: /^https?$/, error: 'The address must be an http(s) URL.' }).max(2000).optional(),
  elasticSearchIndex: z.uuid('The search index must be given by its uuid.').optional(),
  outputPath: text('outputPath').optional(),
  baseOutputFileName: text('baseOutputFileName').optional(),
  tesseract4model: z.uuid('The Tesseract model must be given by its uuid.').optional(),
  krakenModel: z.uuid('The Kraken model must be given by its uuid.').optional(),
  notificationEmail: z.email('The notification email must be an email address.').optional(),
  dropout: num('dropout').min(0, 'dropout must be between 0 and 1.').max(1, 'dropout must be between 0 and 1.').default(JOB_DEFAULTS.dropout),
  learningRate: num('learningRate').positive('learningRate must be more than 0.').default(JOB_DEFAULTS.learningRate),
  siameseBatchSize: int('siameseBatchSize', 1).default(JOB_DEFAULTS.siameseBatchSize),
  imgWidth: int('imgWidth', 1).default(JOB_DEFAULTS.imgWidth),
  imgHeight: int('imgHeight', 1).default(JOB_DEFAULTS.imgHeight),
  training: z.boolean().default(JOB_DEFAULTS.training),
  siameseNetworkModelId: z.uuid('The Siamese network model must be given by its uuid.').optional(),
  exp_name: text('exp_name').default(JOB_DEFAULTS.exp_name),
  work_dir: text('work_dir').default(JOB_DEFAULTS.work_dir),
  log_level: z.enum(P2PALA_OPTIONS.loglevel).default(JOB_DEFAULTS.log_level),
  num_workers: int('num_workers', 0).default(JOB_DEFAULTS.num_workers),
  img_size: text('img_size').default(JOB_DEFAULTS.img_size),
  line_color: int('line_color', 0, 255).default(JOB_DEFAULTS.line_color),
  line_width: int('line_width', 1).default(JOB_DEFAULTS.line_width),
  regions: text('regions').default(JOB_DEFAULTS.regions),
  merge_regions: text('merge_regions').default(JOB_DEFAULTS.merge_regions),
  approx_alg: z.enum(P2PALA_OPTIONS.approxalg).default(JOB_DEFAULTS.approx_alg),
  num_segments: int('num_segments', 1).default(JOB_DEFAULTS.num_segments),
  p2PaLaBatchSize: int('p2PaLaBatchSize', 1).default(JOB_DEFAULTS.p2PaLaBatchSize),
  input_channels: int('input_channels', 1).default(JOB_DEFAULTS.input_channels),
  out_mode: z.enum(P2PALA_OPTIONS.outmode).default(JOB_DEFAULTS.out_mode),
  net_out_type: z.enum(['C', 'R']).default(JOB_DEFAULTS.net_out_type),
  cnn_ngf: int('cnn_ngf', 1).default(JOB_DEFAULTS.cnn_ngf),
  loss_lambda: num('loss_lambda').min(0).default(JOB_DEFAULTS.loss_lambda),
  g_loss: z.enum(['L1', 'MSE', 'smoothL1']).default(JOB_DEFAULTS.g_loss),
  adam_lr: num('adam_lr').positive('adam_lr must be more than 0.').default(JOB_DEFAULTS.adam_lr),
  adam_beta1: num('adam_beta1').min(0).max(1).default(JOB_DEFAULTS.adam_beta1),
  adam_beta2: num('adam_beta2').min(0).max(1).default(JOB_DEFAULTS.adam_beta2),
  do_train: z.boolean().default(JOB_DEFAULTS.do_train),
  cont_train: z.boolean().default(JOB_DEFAULTS.cont_train),
  tr_data: text('tr_data').default(JOB_DEFAULTS.tr_data),
  do_val: z.boolean().default(JOB_DEFAULTS.do_val),
  val_data: text('val_data').default(JOB_DEFAULTS.val_data),
  do_test: z.boolean().default(JOB_DEFAULTS.do_test),
  te_data: text('te_data').default(JOB_DEFAULTS.te_data),
  do_prod: z.boolean().default(JOB_DEFAULTS.do_prod),
  prod_data: text('prod_data').default(JOB_DEFAULTS.prod_data),
  epochs: int('epochs', 1).default(JOB_DEFAULTS.epochs),
  use_gan: z.boolean().default(JOB_DEFAULTS.use_gan),
  gan_layers: int('gan_layers', 1).default(JOB_DEFAULTS.gan_layers),
  max_vertex: int('max_vertex', 1).default(JOB_DEFAULTS.max_vertex),
  e_stdv: num('e_stdv').min(0).default(JOB_DEFAULTS.e_stdv),
  p2palamodel: z.uuid('The P2PaLA model must be given by its uuid.').optional(),
  extract_lines: z.boolean().default(JOB_DEFAULTS.extract_lines),
  priority: int('Priority', 0, 100).default(JOB_DEFAULTS.priority),
  pimFieldUuids: z.array(z.uuid('Each metadata field must be given by its uuid.')).max(20).optional(),
  networkSpec: text('networkSpec').optional(),
  pimFieldSiameseLabel: z.uuid('The label field must be given by its uuid.').optional(),
  siameseChannels: int('siameseChannels', 1, 4).default(JOB_DEFAULTS.siameseChannels),
  siameseBinarizeOtsu: z.boolean().default(JOB_DEFAULTS.siameseBinarizeOtsu),
  siameseBulk: z.boolean().default(JOB_DEFAULTS.siameseBulk),
});
export type CreateJobRequest = z.infer<typeof createJobRequestSchema>;
export type CreateJobInput = z.input<typeof createJobRequestSchema>;

/** The fields the type needs that a request left out, as a person reads them ('' when none). */
export function missingJobFields(request: Partial<Record<JobField, unknown>> & { jobType: JobType }): JobField[] {
  return JOB_TYPE_INFO[request.jobType].required.filter((field) => {
    const value = request[field];
    return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  });
}

/**
 * A job's state (spec part 2 §4): not started (no startDate; may be cancelled), running (started
 * and not done; may be restarted), done (may have a download), failed (its error; may be
 * restarted) or cancelled.
 */
export const JOB_STATES = ['notStarted', 'running', 'done', 'failed', 'cancelled'] as const;
export const jobStateSchema = z.enum(JOB_STATES);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobProgressSchema = z.object({
  done: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
  message: z.string().nullable(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

/** Who ran a job, for its provenance: the built-in worker or a remote one, with its versions. */
export const jobWorkerSchema = z.object({
  name: z.string(),
  host: z.string().nullable(),
  /** The worker's and its tools' versions, e.g. `{ pim: '0.1.0', tesseract: '5.3.0' }`. */
  versions: z.record(z.string(), z.string()),
});
export type JobWorker = z.infer<typeof jobWorkerSchema>;

/** A job as the list and the API show it: the spec's fields (§3) and its state and progress. */
export const jobSchema = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  jobType: jobTypeSchema,
  state: jobStateSchema,
  startDate: z.iso.datetime().nullable(),
  /** When it finished (done, failed or cancelled). */
  endDate: z.iso.datetime().nullable(),
  done: z.boolean(),
  inProgress: z.boolean(),
  documentImageset: namedRefSchema.nullable(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  allData: z.boolean(),
  uri: z.string().nullable(),
  elasticSearchIndex: z.string().nullable(),
  error: z.string().nullable(),
  /** Its place in the queue among the jobs not started (1: next), null once started. */
  jobOrder: z.number().int().nullable(),
  priority: z.number().int().min(0).max(100),
  /** Relative to the API base: `pim/jobs/download/{uuid}`, when the job made a file. */
  downloadUri: z.string().nullable(),
  /** The job this one belongs to (a P2PaLA or Siamese record's wrapper). */
  wrapper: z.uuid().nullable(),
  owner: namedRefSchema.nullable(),
  progress: jobProgressSchema.nullable(),
  /** Set while no worker that runs this type has been seen: 'Waiting for a worker that runs P2PaLA.' */
  waitingFor: z.string().nullable(),
  worker: jobWorkerSchema.nullable(),
  attempts: z.number().int().min(0),
  /** The settings it was created with (the creation payload, defaults filled in). */
  settings: z.record(z.string(), z.unknown()),
  /** What its last run counted and noted (pages read, images passed by, failures), empty until then. */
  result: z.record(z.string(), z.unknown()),
  /** The names of the records its settings name by id, by setting: `{ tesseract4model: 'Dutch print' }`. */
  settingNames: z.record(z.string(), z.string()),
});
export type Job = z.infer<typeof jobSchema>;

export const jobListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30, 40, 50].includes(n), 'pageSize must be 10, 20, 30, 40 or 50')
    .default(20),
  onlyOwnData: z.stringbool().default(false),
});
export type JobListQuery = z.infer<typeof jobListQuerySchema>;
export const jobPageSchema = z.object({ results: z.array(jobSchema), total: z.number().int(), pageSize: z.number().int() });
export type JobPage = z.infer<typeof jobPageSchema>;

/** `GET pim/jobs/types`: every type with where it runs and whether a worker serving it has been seen. */
export const jobTypeInfoSchema = z.object({
  type: jobTypeSchema,
  runsHere: z.boolean(),
  /** A remote worker serving this type was seen recently (always true for the built-in types). */
  served: z.boolean(),
  summary: z.string(),
  fields: z.array(z.enum(JOB_FIELDS)),
  required: z.array(z.enum(JOB_FIELDS)),
  download: z.boolean(),
});
export const jobTypeListSchema = z.array(jobTypeInfoSchema);
export type JobTypeListItem = z.infer<typeof jobTypeInfoSchema>;

/** A P2PaLA or Siamese job's own record, linked to its wrapper job (spec part 2 §3). */
export const subJobSchema = z.object({
  uuid: z.uuid(),
  wrapper: z.uuid(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  inProgress: z.boolean(),
  startDate: z.iso.datetime().nullable(),
  done: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  errors: z.string().nullable(),
  imageSet: namedRefSchema.nullable(),
  networkSpec: z.string().nullable(),
});
export type SubJob = z.infer<typeof subJobSchema>;
export const subJobListSchema = z.array(subJobSchema);

const UUID_OR_NUMBER = /^(\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** `pim/jobs/{id}/...`: a job by its serial id or its uuid. */
export const jobIdParams = z.object({ id: z.string().regex(UUID_OR_NUMBER, 'The job id must be a number or a UUID.') });
/** `GET pim/jobs/download/{uuid}`. */
export const jobUuidParams = z.object({ uuid: z.uuid('The job id must be a UUID.') });
/** `POST pim/p2palajob/{id}/cancel`, `POST pim/siamesejob/{id}/cancel`: the record's uuid. */
export const subJobParams = z.object({ id: z.uuid('The id must be the UUID of the record.') });
