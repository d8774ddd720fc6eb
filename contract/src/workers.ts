import { z } from 'zod';
import { JOB_MODEL_FIELD_NAMES, JOB_TYPES, jobTypeSchema } from './job-types.js';
import { modelKindSchema } from './models.js';

/**
 * The calls of remote workers ("minions", `pim worker`): API keys with the MINION role claim jobs
 * of the types they serve, download the images of the job's set, report progress, upload what
 * they made and end the job. Every call after the claim names the job's lease token.
 */

const leaseToken = z.uuid('The lease token is the one the claim answered.');

/** Who claims: shown on the job as its worker (provenance), with the versions of its tools. */
export const workerIdentitySchema = z.object({
  name: z.string().trim().min(1, 'The worker needs a name.').max(200, 'The worker name can be at most 200 characters long.'),
  versions: z
    .record(z.string().min(1).max(100), z.string().max(200, 'A version can be at most 200 characters long.'))
    .refine((v) => Object.keys(v).length <= 50, 'A worker can name at most 50 versions.')
    .default({}),
});
export type WorkerIdentity = z.infer<typeof workerIdentitySchema>;

/** `POST pim/workers/claim`. */
export const claimJobRequestSchema = z.object({
  worker: workerIdentitySchema,
  types: z
    .array(jobTypeSchema)
    .min(1, 'Name the job types this worker runs.')
    .max(JOB_TYPES.length)
    .refine((types) => new Set(types).size === types.length, 'Name each job type once.'),
});
export type ClaimJobRequest = z.infer<typeof claimJobRequestSchema>;

/** An image of the claimed job's set that the job still has to do. */
export const workerImageSchema = z.object({
  uuid: z.uuid(),
  label: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  pageNumber: z.number().int().nullable(),
  /** The name of the uploaded file, e.g. `f001r.jpg`. */
  fileName: z.string(),
});
export type WorkerImage = z.infer<typeof workerImageSchema>;

/**
 * An uploaded model the claimed job's settings name (e.g. its `krakenModel`), for the worker to
 * download with `GET pim/workers/jobs/{uuid}/models/{id}` and check by its size and SHA-256.
 */
export const workerModelSchema = z.object({
  /** The setting that names it. */
  setting: z.enum(JOB_MODEL_FIELD_NAMES),
  id: z.uuid(),
  kind: modelKindSchema,
  label: z.string(),
  /** The ISO 639-3 code of a Kraken or Tesseract model; Tesseract reads it under this name. */
  language: z.string().nullable(),
  /** The uploaded file's name, reduced to letters, digits, `.`, `_` and `-`, its extension kept (`.mlmodel`, `.traineddata`). */
  fileName: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
});
export type WorkerModel = z.infer<typeof workerModelSchema>;

/** The job a claim gave this worker (200); no job waits: 204 without a body. */
export const claimedJobSchema = z.object({
  job: z.object({
    id: z.number().int(),
    uuid: z.uuid(),
    type: jobTypeSchema,
    /** The job's settings with their defaults: the fields of its type, jobType and priority. */
    settings: z.record(z.string(), z.unknown()),
    setId: z.uuid().nullable(),
    leaseToken,
    leaseExpiresAt: z.iso.datetime(),
    /** How long the lease lasts without a heartbeat: beat well within it (a third). */
    leaseSeconds: z.number(),
    /**
     * The set's own images in its order that this job still has to do: those without a
     * transcription of this job type (with allData, all but those this job already did).
     */
    images: z.array(workerImageSchema),
    /** The models its settings name (none when it names none). */
    models: z.array(workerModelSchema),
  }),
});
export type ClaimedJob = z.infer<typeof claimedJobSchema>;

export const workerJobParams = z.object({ uuid: z.uuid('The job is named by its uuid.') });
export const workerImageParams = workerJobParams.extend({ imageId: z.uuid('The image is named by its uuid.') });
export const workerImageQuery = z.object({ leaseToken });
export const workerModelParams = workerJobParams.extend({ modelId: z.uuid('The model is named by its uuid.') });

/** `POST pim/workers/jobs/{uuid}/heartbeat`: renews the lease, with the progress so far. */
export const heartbeatRequestSchema = z.object({
  leaseToken,
  progress: z
    .object({
      done: z.number().int().min(0),
      total: z.number().int().min(0).nullable(),
      message: z.string().max(1000, 'A progress message can be at most 1000 characters long.').optional(),
    })
    .optional(),
});
export type HeartbeatRequest = z.infer<typeof heartbeatRequestSchema>;
export const heartbeatResponseSchema = z.object({ leaseExpiresAt: z.iso.datetime() });

/** `POST pim/workers/jobs/{uuid}/complete`: facts for the job's record (counts, tools). */
export const completeJobRequestSchema = z.object({
  leaseToken,
  result: z
    .record(z.string(), z.unknown())
    .refine((r) => JSON.stringify(r).length <= 64 * 1024, 'The result can be at most 64 KB of JSON.')
    .optional(),
});
export type CompleteJobRequest = z.infer<typeof completeJobRequestSchema>;

/** `POST pim/workers/jobs/{uuid}/fail`: the message the job's user reads. */
export const failJobRequestSchema = z.object({
  leaseToken,
  message: z.string().trim().min(1, 'Say why the job failed.').max(4000, 'The message can be at most 4000 characters long.'),
});
export type FailJobRequest = z.infer<typeof failJobRequestSchema>;

/** `POST pim/workers/jobs/{uuid}/release`: the worker stops; the job goes back to the queue. */
export const releaseJobRequestSchema = z.object({ leaseToken });

/**
 * The text fields of `POST pim/workers/jobs/{uuid}/files` (multipart, the file in the part
 * `file`): a transcription of an image of the job's set (PAGE, ALTO or hOCR), or the job's output
 * file (its download).
 */
export const WORKER_FILE_FIELD = 'file';
export const workerFileFieldsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('transcription'), leaseToken, imageId: z.uuid('The image is named by its uuid.') }),
  z.object({
    kind: z.literal('output'),
    leaseToken,
    mediaType: z.string().max(200).optional(),
  }),
]);
export type WorkerFileFields = z.infer<typeof workerFileFieldsSchema>;

export const workerFileResultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('transcription'),
    image: z.uuid(),
    /** stored: new; replaced: this job type's earlier one was written over; kept: the earlier one stands (no allData). */
    outcome: z.enum(['stored', 'replaced', 'kept']),
    transcription: z.uuid().nullable(),
    lines: z.number().int(),
  }),
  z.object({ kind: z.literal('output'), fileName: z.string(), sizeBytes: z.number().int() }),
]);
export type WorkerFileResult = z.infer<typeof workerFileResultSchema>;
