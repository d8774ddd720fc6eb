import {
  P2PALA_OPTIONS,
  type P2palaOptionList,
  createJobRequestSchema,
  errorResponseSchema,
  jobIdParams,
  jobListQuerySchema,
  jobPageSchema,
  jobSchema,
  jobTypeListSchema,
  jobUuidParams,
  onlyOwnDataQuery,
  p2palaOptionListSchema,
  subJobListSchema,
  subJobParams,
} from '@pim/contract';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentJob, presentJobType, presentSubJob } from './presenter.js';
import type { JobFile, SubJobKind } from './repository.js';
import type { JobService } from './service.js';

const tags = ['Jobs'];
const withConflict = { ...errorResponses, 409: errorResponseSchema };

/** The job calls of people (spec part 2 §7 "Jobs"); remote workers claim through the worker calls instead. */
export const jobRoutes: FastifyPluginAsyncZod<{ jobs: JobService }> = async (app, { jobs }) => {
  app.get(
    '/pim/jobs',
    {
      schema: {
        tags,
        summary: "A page of the caller's jobs (admins: everyone's), newest first",
        querystring: jobListQuerySchema,
        response: { 200: jobPageSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { records, total, context } = await jobs.list(req.principal, req.query);
      return { results: records.map((r) => presentJob(r, context)), total, pageSize: req.query.pageSize };
    },
  );

  app.get(
    '/pim/jobs/types',
    {
      schema: {
        tags,
        summary: 'Every job type: what it does, its form fields, where it runs and whether a worker serving it was seen lately',
        response: { 200: jobTypeListSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { types, served } = await jobs.types(req.principal);
      return types.map((type) => presentJobType(type, served));
    },
  );

  app.post(
    '/pim/jobs',
    {
      schema: {
        tags,
        summary: 'Queue a job: {imageSet, jobType} or the whole creation payload; answers at once with the queued job',
        body: createJobRequestSchema,
        response: { 200: jobSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { record, context } = await jobs.create(req.principal, req.body);
      return presentJob(record, context);
    },
  );

  app.get(
    '/pim/jobs/:id',
    { schema: { tags, summary: 'One job, by its id or uuid, for the screens to follow', params: jobIdParams, response: { 200: jobSchema, ...errorResponses } } },
    async (req) => {
      const { record, context } = await jobs.get(req.principal, req.params.id);
      return presentJob(record, context);
    },
  );

  app.post(
    '/pim/jobs/:id/cancel',
    { schema: { tags, summary: 'Cancel a job that has not started (409 otherwise, saying why)', params: jobIdParams, response: { 200: jobSchema, ...withConflict } } },
    async (req) => {
      const { record, context } = await jobs.cancel(req.principal, req.params.id);
      return presentJob(record, context);
    },
  );

  app.post(
    '/pim/jobs/:id/restart',
    {
      schema: {
        tags,
        summary: 'Queue a running, failed or cancelled job again from the start; a worker still running it is told to stop',
        params: jobIdParams,
        response: { 200: jobSchema, ...withConflict },
      },
    },
    async (req) => {
      const { record, context } = await jobs.restart(req.principal, req.params.id);
      return presentJob(record, context);
    },
  );

  app.get(
    '/pim/jobs/download/:uuid',
    { schema: { tags, summary: 'The file a done job made (an EPUB, a CSV), with its name', params: jobUuidParams, response: errorResponses } },
    async (req, reply) => {
      const { file, open } = await jobs.download(req.principal, req.params.uuid);
      return sendJobFile(reply, file, open());
    },
  );

  for (const list of Object.keys(P2PALA_OPTIONS) as P2palaOptionList[]) {
    app.get(
      `/pim/p2palajob/${list}`,
      { schema: { tags, summary: `The choices of P2PaLA's ${list} setting`, response: { 200: p2palaOptionListSchema, ...errorResponses } } },
      async (req) => [...jobs.p2palaOptions(req.principal, list)],
    );
  }

  for (const [path, kind, name] of [
    ['p2palajob', 'p2pala', 'P2PaLA'],
    ['siamesejob', 'siamese', 'Siamese'],
  ] as const satisfies readonly (readonly [string, SubJobKind, string])[]) {
    app.get(
      `/pim/${path}`,
      {
        schema: {
          tags,
          summary: `The ${name} jobs of the caller (admins: everyone's), newest first, each with the state of the job that runs it`,
          querystring: onlyOwnDataQuery,
          response: { 200: subJobListSchema, ...errorResponses },
        },
      },
      async (req) => (await jobs.subJobs(req.principal, kind, req.query.onlyOwnData)).map(presentSubJob),
    );

    app.post(
      `/pim/${path}/:id/cancel`,
      {
        schema: {
          tags,
          summary: `Cancel a ${name} job that waits or runs (204); a worker running it is told to stop`,
          params: subJobParams,
          response: { 204: z.null().describe('cancelled'), ...withConflict },
        },
      },
      async (req, reply) => {
        await jobs.cancelSubJob(req.principal, kind, req.params.id);
        return reply.code(204).send(null);
      },
    );
  }
};

/** Streams a job's file as an attachment with its own name (ASCII, and in full as RFC 5987 allows). */
function sendJobFile(reply: FastifyReply, file: JobFile, body: Readable) {
  const ascii = file.originalName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return reply
    .type(file.mediaType)
    .header('cache-control', 'private, no-store')
    .header('content-length', file.sizeBytes)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`)
    .send(body);
}
