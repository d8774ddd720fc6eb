import {
  claimJobRequestSchema,
  claimedJobSchema,
  completeJobRequestSchema,
  errorResponseSchema,
  failJobRequestSchema,
  heartbeatRequestSchema,
  heartbeatResponseSchema,
  releaseJobRequestSchema,
  WORKER_FILE_FIELD,
  workerFileResultSchema,
  workerImageParams,
  workerImageQuery,
  workerJobParams,
  workerModelParams,
} from '@pim/contract';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type MultipartLimits, readMultipartForm, registerMultipart } from '../../platform/http/multipart-form.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { WorkerImageFile } from './repository.js';
import type { WorkerService } from './service.js';

const tags = ['Workers'];
const withConflict = { ...errorResponses, 409: errorResponseSchema };
const ended = (what: string) => ({ 204: z.null().describe(what), ...withConflict });

/**
 * The calls of remote workers (`pim worker`, API keys with the MINION role): claim a job, fetch
 * its images, report progress, upload what was made, end it. Every call after the claim names
 * the claim's lease token; 409 says the job is no longer the worker's (cancelled, restarted, or
 * taken back after its lease expired): it must stop.
 */
export const workerRoutes: FastifyPluginAsyncZod<{ workers: WorkerService; maxFileBytes: number }> = async (app, { workers, maxFileBytes }) => {
  const limits: MultipartLimits = { maxFileBytes, maxFields: 5 };
  await registerMultipart(app, limits);

  app.post(
    '/pim/workers/claim',
    {
      schema: {
        tags,
        summary: 'Claim the first waiting job of these types (204: none waits); the worker counts as serving them from now on',
        body: claimJobRequestSchema,
        response: { 200: claimedJobSchema, 204: z.null().describe('no job of these types waits'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const claimed = await workers.claim(req.principal, req.body, req.ip);
      return claimed ? claimed : reply.code(204).send(null);
    },
  );

  app.post(
    '/pim/workers/jobs/:uuid/heartbeat',
    {
      schema: {
        tags,
        summary: 'Renew the lease of a claimed job, with its progress; 409: the job is no longer yours, stop',
        params: workerJobParams,
        body: heartbeatRequestSchema,
        response: { 200: heartbeatResponseSchema, ...withConflict },
      },
    },
    async (req) => ({ leaseExpiresAt: (await workers.heartbeat(req.principal, req.params.uuid, req.body)).toISOString() }),
  );

  app.get(
    '/pim/workers/jobs/:uuid/images/:imageId',
    {
      schema: {
        tags,
        summary: "The stored original of an image of the job's set, while the lease is held",
        params: workerImageParams,
        querystring: workerImageQuery,
        response: withConflict,
      },
    },
    async (req, reply) => {
      const { image, open } = await workers.image(req.principal, req.params.uuid, req.params.imageId, req.query.leaseToken);
      return sendFile(reply, image, open());
    },
  );

  app.get(
    '/pim/workers/jobs/:uuid/models/:modelId',
    {
      schema: {
        tags,
        summary:
          "The file of a model the job's settings name (krakenModel, tesseract4model, p2palamodel, siameseNetworkModelId), while the lease is held; " +
          '404 for a model the job does not name or one deleted since',
        params: workerModelParams,
        querystring: workerImageQuery,
        response: withConflict,
      },
    },
    async (req, reply) => {
      const { model, open } = await workers.model(req.principal, req.params.uuid, req.params.modelId, req.query.leaseToken);
      return sendFile(reply, model.file, open());
    },
  );

  app.post(
    '/pim/workers/jobs/:uuid/files',
    {
      schema: {
        tags,
        summary:
          `Upload what the job made (multipart: leaseToken, kind, and the file in the part "${WORKER_FILE_FIELD}"): kind=transcription with imageId ` +
          "stores a PAGE, ALTO or hOCR file as that image's transcription; kind=output keeps the job's download",
        consumes: ['multipart/form-data'],
        params: workerJobParams,
        response: { 200: workerFileResultSchema, ...withConflict, 413: errorResponseSchema },
      },
    },
    async (req) => workers.file(req.principal, req.params.uuid, () => readMultipartForm(req, workers.files, limits, { fileField: WORKER_FILE_FIELD })),
  );

  app.post(
    '/pim/workers/jobs/:uuid/complete',
    { schema: { tags, summary: 'The job is done (its result: facts for its record)', params: workerJobParams, body: completeJobRequestSchema, response: ended('done') } },
    async (req, reply) => {
      await workers.complete(req.principal, req.params.uuid, req.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/pim/workers/jobs/:uuid/fail',
    { schema: { tags, summary: 'The job failed: the message its user reads', params: workerJobParams, body: failJobRequestSchema, response: ended('failed') } },
    async (req, reply) => {
      await workers.fail(req.principal, req.params.uuid, req.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/pim/workers/jobs/:uuid/release',
    {
      schema: {
        tags,
        summary: 'The worker stops before the job is done: it goes back to the queue for another worker',
        params: workerJobParams,
        body: releaseJobRequestSchema,
        response: ended('back in the queue'),
      },
    },
    async (req, reply) => {
      await workers.release(req.principal, req.params.uuid, req.body.leaseToken);
      return reply.code(204).send(null);
    },
  );
};

/** An image's or a model's bytes as they were uploaded, never cached by a proxy (the lease is what allows them). */
function sendFile(reply: FastifyReply, file: Pick<WorkerImageFile, 'mediaType' | 'sizeBytes'>, body: Readable) {
  return reply.type(file.mediaType).header('cache-control', 'private, no-store').header('content-length', file.sizeBytes).send(body);
}
