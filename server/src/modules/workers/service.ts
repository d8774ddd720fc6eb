import type { Readable } from 'node:stream';
import {
  type ClaimJobRequest,
  type ClaimedJob,
  type CompleteJobRequest,
  type FailJobRequest,
  type HeartbeatRequest,
  JOB_TYPE_INFO,
  type JobType,
  type WorkerFileResult,
  workerFileFieldsSchema,
} from '@pim/contract';
import { isJobNotYours, type JobQueue, jobNotYours, type JobRow } from '../../jobs/queue.js';
import type { RunningJob } from '../../jobs/executor.js';
import type { Principal } from '../../platform/auth/principal.js';
import { requireWorker } from '../../platform/auth/policy.js';
import { AppError, badRequest, notFound, tooLarge } from '../../platform/errors.js';
import type { MultipartForm } from '../../platform/http/multipart-form.js';
import { type FileStore, formatBytes } from '../../platform/storage/file-store.js';
import type { ModelRecord } from '../models/repository.js';
import type { ModelService } from '../models/service.js';
import type { RecognitionService } from '../recognition/service.js';
import type { UploadService } from '../uploads/service.js';
import { transcriptionOfReading } from '../uploads/xml-transcription.js';
import { modelOfJob, namedModels, workerModel } from './job-models.js';
import type { WorkerImageFile, WorkerRepository } from './repository.js';

/** A claim that finds only jobs that cannot run (their maker disabled, their set gone) fails them and tries this many. */
const CLAIM_TRIES = 10;

export interface WorkerServiceLimits {
  /** PAGE, ALTO and hOCR files are read whole: PIM_XML_MAX_MB. */
  maxXmlBytes: number;
}

/**
 * The calls of remote workers: the queue's claim, heartbeat, output, complete and fail behind
 * HTTP, with what a worker needs besides (the images of the job's set, storing a transcription
 * it made). Only MINION keys and administrators may use them; every call after the claim must
 * name the lease token the claim gave, and is answered 409 once the job is no longer the
 * worker's. A job acts with its maker's rights: what a worker stores, it stores as the maker.
 */
export class WorkerService {
  constructor(
    private readonly repo: WorkerRepository,
    private readonly queue: JobQueue,
    private readonly recognition: RecognitionService,
    private readonly uploads: UploadService,
    private readonly models: ModelService,
    readonly files: FileStore,
    readonly limits: WorkerServiceLimits,
  ) {}

  /**
   * Gives the worker the first waiting job of its types, or null. The worker counts as serving
   * those types from now on (the screens stop saying "waiting for a worker"). A job that cannot
   * run (its maker was disabled, its set deleted) fails with the reason and the next is tried.
   */
  async claim(principal: Principal | null, request: ClaimJobRequest, host: string): Promise<ClaimedJob | null> {
    requireWorker(principal);
    const { name, versions } = request.worker;
    await this.queue.markSeen(name, request.types, { host, versions });
    for (let i = 0; i < CLAIM_TRIES; i++) {
      const claimed = await this.queue.claim(request.types, { name, host, versions });
      if (!claimed) return null;
      const { row, leaseToken } = claimed;
      try {
        const job = await this.queue.runningJob(row);
        return { job: { ...(await this.describe(job, row)), leaseToken, leaseSeconds: this.queue.options.leaseMs / 1000 } };
      } catch (err) {
        if (!(err instanceof AppError)) {
          await this.queue.release(row.uuid, leaseToken).catch(() => undefined);
          throw err;
        }
        await this.queue.fail(row.uuid, leaseToken, err.message).catch(() => undefined);
      }
    }
    return null;
  }

  /** Renews the lease with the progress so far. */
  async heartbeat(principal: Principal | null, uuid: string, request: HeartbeatRequest): Promise<Date> {
    requireWorker(principal);
    const progress = request.progress ? { done: request.progress.done, total: request.progress.total, message: request.progress.message ?? null } : null;
    return this.orNotFound(uuid, () => this.queue.heartbeat(uuid, request.leaseToken, progress));
  }

  /** The stored original of an image of the job's set, while the worker holds the job. */
  async image(principal: Principal | null, uuid: string, imageId: string, leaseToken: string): Promise<{ image: WorkerImageFile; open: () => Readable }> {
    requireWorker(principal);
    const row = await this.heldJob(uuid, leaseToken);
    const image = row.set_id ? await this.repo.imageOfSet(row.set_id, imageId) : undefined;
    if (!image) throw notFound(`The image ${imageId} is not in the image set of job ${row.id}.`);
    return { image, open: () => this.files.stream(image.sha256) };
  }

  /**
   * The file of a model the job's settings name (its `krakenModel`, `tesseract4model`...), while
   * the worker holds the job: 404 for a model the job does not name, or one deleted since.
   */
  async model(principal: Principal | null, uuid: string, modelId: string, leaseToken: string): Promise<{ model: ModelRecord; open: () => Readable }> {
    requireWorker(principal);
    const row = await this.heldJob(uuid, leaseToken);
    const job = await this.queue.runningJob(row);
    const named = namedModels(job).find((m) => m.id === modelId);
    if (!named) throw notFound(`Job ${row.id} does not name the model ${modelId}: a worker may download only the models its job's settings name.`);
    const model = await modelOfJob(this.models, job.principal, row.id, named);
    return { model, open: () => this.files.stream(model.file.sha256) };
  }

  /**
   * A file the worker made: a transcription of an image of the job's set, stored as an upload of
   * that XML would be (the same reader and rows), or the job's download. `read` reads the form;
   * it runs only once the caller is known to be a worker. Whatever was staged is discarded.
   */
  async file(principal: Principal | null, uuid: string, read: () => Promise<MultipartForm>): Promise<WorkerFileResult> {
    requireWorker(principal);
    const form = await read();
    try {
      const parsed = workerFileFieldsSchema.safeParse(form.fields);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The form is not valid.', { issues: parsed.error.issues });
      if (!form.file) throw badRequest('The form has no file: send it in the part named "file".');
      const fields = parsed.data;
      const row = await this.heldJob(uuid, fields.leaseToken);
      if (fields.kind === 'output') {
        const { staged, fileName } = form.file;
        await this.orNotFound(uuid, () =>
          this.queue.attachOutput(uuid, fields.leaseToken, staged, { fileName, mediaType: fields.mediaType ?? 'application/octet-stream' }),
        );
        return { kind: 'output', fileName, sizeBytes: staged.sizeBytes };
      }
      return await this.storeTranscription(row, fields.imageId, form.file);
    } finally {
      await form.file?.staged.discard();
    }
  }

  async complete(principal: Principal | null, uuid: string, request: CompleteJobRequest): Promise<void> {
    requireWorker(principal);
    await this.orNotFound(uuid, () => this.queue.complete(uuid, request.leaseToken, { ...(request.result && { result: request.result }) }));
  }

  async fail(principal: Principal | null, uuid: string, request: FailJobRequest): Promise<void> {
    requireWorker(principal);
    await this.orNotFound(uuid, () => this.queue.fail(uuid, request.leaseToken, request.message));
  }

  /** The worker stops before the job is done: it goes back to the queue, the run not counted. */
  async release(principal: Principal | null, uuid: string, leaseToken: string): Promise<void> {
    requireWorker(principal);
    await this.orNotFound(uuid, () => this.queue.release(uuid, leaseToken));
  }

  private async storeTranscription(row: JobRow, imageId: string, file: NonNullable<MultipartForm['file']>): Promise<WorkerFileResult> {
    const { staged, fileName } = file;
    if (staged.sizeBytes > this.limits.maxXmlBytes) {
      throw tooLarge(`This XML file is larger than the limit of ${formatBytes(this.limits.maxXmlBytes)} for PAGE, ALTO and hOCR files.`);
    }
    const image = row.set_id ? await this.repo.imageOfSet(row.set_id, imageId) : undefined;
    if (!image) throw notFound(`The image ${imageId} is not in the image set of job ${row.id}.`);
    const job = await this.queue.runningJob(row);
    const content = transcriptionOfReading(await this.uploads.readXml(staged), image);
    const worker = row.worker?.name ?? 'a remote worker';
    const stored = await this.recognition.storeFile(
      job.principal,
      {
        setId: row.set_id!,
        imageId,
        transcriber: content.transcriber ?? `${job.type} (${worker})`,
        language: content.language ?? null,
        params: { job: job.type, jobUuid: job.uuid, worker, versions: row.worker?.versions ?? {} },
        mark: { job: job.type },
        existing: job.settings.allData ? 'replace' : 'keep',
        ownerId: job.principal.userId,
      },
      content,
      { staged, fileName },
    );
    if (stored.outcome === 'gone') throw notFound(`The image ${imageId} left the image set of job ${row.id}, or the set was deleted.`);
    if (!('transcriptionId' in stored)) return { kind: 'transcription', image: imageId, outcome: 'kept', transcription: null, lines: 0 };
    return { kind: 'transcription', image: imageId, outcome: stored.outcome, transcription: stored.transcriptionId, lines: content.regions.flatMap((r) => r.lines).length };
  }

  /**
   * What the worker is told of a claimed job: its settings for its type, the images it still has
   * to do and the models it names (one deleted since fails the job at the claim: it cannot run).
   */
  private async describe(job: RunningJob, row: JobRow): Promise<Omit<ClaimedJob['job'], 'leaseToken' | 'leaseSeconds'>> {
    const pages = job.setId ? await this.recognition.pages(job.principal, job.setId, { job: job.type }) : [];
    const todo = pages.filter((p) => !p.made || (job.settings.allData && p.made.jobUuid !== job.uuid));
    return {
      id: job.id,
      uuid: job.uuid,
      type: job.type,
      settings: settingsOfType(job),
      setId: job.setId,
      leaseExpiresAt: row.lease_expires_at!.toISOString(),
      images: todo.map((p) => ({ uuid: p.id, label: p.label, width: p.width, height: p.height, pageNumber: p.pageNumber, fileName: p.file.originalName })),
      models: await Promise.all(namedModels(job).map(async (named) => workerModel(named, await modelOfJob(this.models, job.principal, job.id, named)))),
    };
  }

  /** The job while this lease holds it: 404 when there is no such job, 409 when it is no longer the worker's. */
  private async heldJob(uuid: string, leaseToken: string): Promise<JobRow> {
    const row = await this.repo.job(uuid);
    if (!row) throw noSuchJob(uuid);
    if (row.state !== 'running' || row.lease_token !== leaseToken) throw jobNotYours();
    return row;
  }

  /** Runs a queue call that names the lease; its "not yours" becomes 404 when the job does not exist at all. */
  private async orNotFound<T>(uuid: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isJobNotYours(err) && !(await this.repo.job(uuid))) throw noSuchJob(uuid);
      throw err;
    }
  }
}

const noSuchJob = (uuid: string) => notFound(`There is no job ${uuid}.`);

/** The settings a worker needs: those of the job's type (defaults filled in), its type and priority. */
function settingsOfType(job: RunningJob): Record<string, unknown> {
  const all = job.settings as Record<string, unknown>;
  const settings: Record<string, unknown> = { jobType: job.type, priority: job.settings.priority };
  for (const field of JOB_TYPE_INFO[job.type as JobType].fields) if (all[field] !== undefined) settings[field] = all[field];
  return settings;
}
