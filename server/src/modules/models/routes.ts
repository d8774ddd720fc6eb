import {
  MODEL_KINDS,
  MODEL_KIND_INFO,
  errorResponseSchema,
  languageAutocompleteResponseSchema,
  modelAutocompleteResponseSchema,
  modelBinaryQuerySchema,
  modelDownloadName,
  modelListQuerySchema,
  modelListSchema,
  modelPageRequestQuerySchema,
  modelPageSchema,
  modelParams,
  modelSchema,
  typeaheadQuery,
  type ModelKind,
} from '@pim/contract';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { type MultipartLimits, readMultipartForm, registerMultipart } from '../../platform/http/multipart-form.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import { MODEL_HEAD_BYTES, MODEL_KIND_NAMES } from './model-formats.js';
import { presentModel } from './presenter.js';
import type { ModelRecord } from './repository.js';
import { MODEL_FILE_FIELD, type ModelService } from './service.js';

export interface ModelRoutesOptions {
  models: ModelService;
  /** Where uploads are staged. */
  files: FileStore;
}

const tags = ['Models'];

/**
 * The routes of the eight model kinds (spec part 2 §7 "Models"), made from MODEL_KIND_INFO so every
 * kind has the same calls under its own paths, and the language picker of the Kraken and
 * Tesseract forms.
 */
export const modelRoutes: FastifyPluginAsyncZod<ModelRoutesOptions> = async (app, { models, files }) => {
  const limits: MultipartLimits = { maxFileBytes: models.limits.maxBytes, maxFields: 4, maxFieldBytes: 4096 };
  await registerMultipart(app, limits);

  app.get(
    '/pim/language/autocomplete',
    {
      schema: {
        tags,
        summary: 'ISO 639 languages whose code or name contains the filter: the exact code first, living languages before historical ones',
        querystring: typeaheadQuery,
        response: { 200: languageAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => models.languages(req.principal, req.query),
  );

  for (const kind of MODEL_KINDS) registerKind(app, kind, models, files, limits);
};

function registerKind(app: FastifyInstance, kind: ModelKind, models: ModelService, files: FileStore, limits: MultipartLimits): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const info = MODEL_KIND_INFO[kind];
  const name = MODEL_KIND_NAMES[kind];
  const base = `/${info.basePath}`;

  if (info.kind === 'laypa') {
    typed.get(
      `/${info.listPath}`,
      {
        schema: {
          tags,
          summary: `A page of the ${name} models the caller may see, newest first`,
          querystring: modelPageRequestQuerySchema,
          response: { 200: modelPageSchema, ...errorResponses },
        },
      },
      async (req) => {
        const { records, total } = await models.page(req.principal, kind, req.query);
        return { results: records.map(presentModel), total, pageSize: req.query.pageSize };
      },
    );
  } else {
    typed.get(
      `/${info.listPath}`,
      {
        schema: {
          tags,
          summary: `The ${name} models the caller may see, by label`,
          querystring: modelListQuerySchema,
          response: { 200: modelListSchema, ...errorResponses },
        },
      },
      async (req) => (await models.list(req.principal, kind, req.query.onlyOwnData)).map(presentModel),
    );
  }

  typed.get(
    `${base}/autocomplete`,
    {
      schema: {
        tags,
        summary: `${name} models whose label contains the filter, for the job form's picker`,
        querystring: typeaheadQuery,
        response: { 200: modelAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await models.autocomplete(req.principal, kind, req.query);
      return { results: page.results.map((m) => ({ uuid: m.id, name: m.label })), pageSize: page.pageSize };
    },
  );

  typed.get(
    `${base}/:uuid`,
    { schema: { tags, summary: `One ${name} model with its properties`, params: modelParams, response: { 200: modelSchema, ...errorResponses } } },
    async (req) => presentModel(await models.get(req.principal, kind, req.params.uuid)),
  );

  typed.post(
    base,
    {
      schema: {
        tags,
        summary: `Upload a ${name} model (admins): multipart with ${describeFields(kind)} and the file in the part "${MODEL_FILE_FIELD}" (${info.accept.join(', ')})`,
        consumes: ['multipart/form-data'],
        response: { 201: modelSchema, ...errorResponses, 413: errorResponseSchema, 415: errorResponseSchema },
      },
    },
    async (req, reply) => {
      const model = await models.create(req.principal, kind, (checks) =>
        readMultipartForm(req, files, limits, { fileField: MODEL_FILE_FIELD, headBytes: MODEL_HEAD_BYTES, ...checks }),
      );
      return reply.code(201).send(presentModel(model));
    },
  );

  typed.delete(
    `${base}/:uuid`,
    {
      schema: {
        tags,
        summary: `Delete a ${name} model and its file (admins)`,
        params: modelParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await models.delete(req.principal, kind, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  typed.get(
    `${base}/:uuid/binary`,
    {
      schema: {
        tags,
        summary: `The ${name} model's file, as a download (from=detail: the name the detail page gives it)`,
        params: modelParams,
        querystring: modelBinaryQuerySchema,
        response: errorResponses,
      },
    },
    async (req, reply) => {
      const { model, open } = await models.file(req.principal, kind, req.params.uuid);
      return sendModelFile(reply, model, modelDownloadName({ kind, uuid: model.id, fileName: model.file.originalName }, req.query.from), open());
    },
  );

  if (!info.hasVisibility) return;
  for (const [action, isPublic] of [
    ['makepublic', true],
    ['makeprivate', false],
  ] as const) {
    typed.put(
      `${base}/:uuid/${action}`,
      {
        schema: {
          tags,
          summary: isPublic ? `Show the ${name} model to everyone signed in (admins)` : `Show the ${name} model only to its owner and admins (admins)`,
          params: modelParams,
          response: { 200: modelSchema, ...errorResponses },
        },
      },
      async (req) => presentModel(await models.setPublic(req.principal, kind, req.params.uuid, isPublic)),
    );
  }
}

/** Streams the stored file with its length, so the browser shows the progress of a large download. */
function sendModelFile(reply: FastifyReply, model: ModelRecord, fileName: string, body: Readable) {
  return reply
    .type(model.file.mediaType)
    .header('cache-control', 'private, no-store')
    .header('content-length', model.file.sizeBytes)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(body);
}

function describeFields(kind: ModelKind): string {
  const info = MODEL_KIND_INFO[kind];
  const label = kind === 'p2pala' ? `"${info.nameField}" (optional: the file name)` : `"${info.nameField}"`;
  return info.hasLanguage ? `${label}, "language" (ISO 639 code)` : label;
}
