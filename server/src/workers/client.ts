import { createHash } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ClaimedJob, WorkerFileResult, WorkerIdentity, WorkerModel } from '@pim/contract';

/** The server answered that the job is no longer this worker's (409): stop, write nothing more. */
export class JobLostError extends Error {}

/** The server refused a call (a 4xx other than 409): retrying would not help. */
export class RefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The server could not be reached, or answered 5xx: worth trying again. */
export class UnreachableError extends Error {}

export type ClaimedWorkerJob = ClaimedJob['job'];

export interface ProgressReport {
  done: number;
  total: number | null;
  message?: string;
}

/**
 * The worker calls of a PIM server over HTTP (`/api/pim/workers/...`), with an API key. Each
 * method makes one attempt: callers decide whether an UnreachableError is worth another.
 */
export class WorkerClient {
  private readonly base: string;

  constructor(
    server: string,
    private readonly key: string,
  ) {
    this.base = `${server.replace(/\/+$/, '')}/api/pim/workers/`;
  }

  /** The first waiting job of the types, or null when none waits. */
  async claim(worker: WorkerIdentity, types: readonly string[]): Promise<ClaimedWorkerJob | null> {
    const res = await this.request('claim', { method: 'POST', json: { worker, types } });
    if (res.status === 204) return null;
    return ((await res.json()) as ClaimedJob).job;
  }

  async heartbeat(job: ClaimedWorkerJob, progress?: ProgressReport): Promise<void> {
    await this.request(`jobs/${job.uuid}/heartbeat`, { method: 'POST', json: { leaseToken: job.leaseToken, ...(progress && { progress }) } });
  }

  /** Downloads the stored original of an image of the job's set into `target`. */
  async downloadImage(job: ClaimedWorkerJob, imageId: string, target: string): Promise<void> {
    const res = await this.request(`jobs/${job.uuid}/images/${imageId}?leaseToken=${job.leaseToken}`, { method: 'GET' });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(target));
  }

  /**
   * Downloads a model the job names into `target`, checked against the size and SHA-256 the claim
   * gave: a download cut short or damaged on the way is an UnreachableError, worth another try.
   */
  async downloadModel(job: ClaimedWorkerJob, model: WorkerModel, target: string): Promise<void> {
    const res = await this.request(`jobs/${job.uuid}/models/${model.id}?leaseToken=${job.leaseToken}`, { method: 'GET' });
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(target),
    );
    if (size !== model.sizeBytes || hash.digest('hex') !== model.sha256) {
      throw new UnreachableError(`the model ${model.label} arrived damaged (${size} of ${model.sizeBytes} bytes, or another SHA-256)`);
    }
  }

  /** Uploads a PAGE, ALTO or hOCR file as the transcription of an image of the job's set. */
  async uploadTranscription(job: ClaimedWorkerJob, imageId: string, file: string, fileName = path.basename(file)): Promise<WorkerFileResult> {
    return this.uploadFile(job, { kind: 'transcription', imageId }, file, fileName);
  }

  /** Uploads the job's download (one per job: the last one wins). */
  async uploadOutput(job: ClaimedWorkerJob, file: string, mediaType: string, fileName = path.basename(file)): Promise<WorkerFileResult> {
    return this.uploadFile(job, { kind: 'output', mediaType }, file, fileName);
  }

  async complete(job: ClaimedWorkerJob, result: Record<string, unknown>): Promise<void> {
    await this.request(`jobs/${job.uuid}/complete`, { method: 'POST', json: { leaseToken: job.leaseToken, result } });
  }

  async fail(job: ClaimedWorkerJob, message: string): Promise<void> {
    await this.request(`jobs/${job.uuid}/fail`, { method: 'POST', json: { leaseToken: job.leaseToken, message: message.slice(0, 4000) } });
  }

  async release(job: ClaimedWorkerJob): Promise<void> {
    await this.request(`jobs/${job.uuid}/release`, { method: 'POST', json: { leaseToken: job.leaseToken } });
  }

  private async uploadFile(job: ClaimedWorkerJob, fields: Record<string, string>, file: string, fileName: string): Promise<WorkerFileResult> {
    const form = new FormData();
    form.set('leaseToken', job.leaseToken);
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    // The fields go first, so the server knows what the file is before it reads it.
    form.set('file', await openAsBlob(file), fileName);
    const res = await this.request(`jobs/${job.uuid}/files`, { method: 'POST', body: form });
    return (await res.json()) as WorkerFileResult;
  }

  private async request(relative: string, init: { method: string; json?: unknown; body?: FormData }): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(new URL(relative, this.base), {
        method: init.method,
        headers: { authorization: `ApiKey ${this.key}`, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new UnreachableError(`cannot reach ${this.base} (${cause})`);
    }
    if (res.ok) return res;
    const message = await errorMessage(res);
    if (res.status === 409) throw new JobLostError(message);
    if (res.status >= 500 || res.status === 429) throw new UnreachableError(`the server answered ${res.status}: ${message}`);
    throw new RefusedError(res.status, message);
  }
}

async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text || res.statusText;
  }
}
