import {
  annotatedDatasetListSchema,
  annotatedDatasetParams,
  annotatedImageListSchema,
  createMetadataRequestSchema,
  errorResponseSchema,
  getFieldsQuery,
  getMetadataQuery,
  METADATA_CSV_FILE_NAME,
  metadataOverviewParams,
  metadataOverviewSchema,
  onlyOwnDataQuery,
  pimFieldSchema,
  storedMetadataSchema,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentField } from '../fieldsets/presenter.js';
import { presentAnnotatedDataset, presentAnnotatedImage, presentOverview, presentOverviewCsv, presentStoredValue } from './presenter.js';
import type { MetadataService } from './service.js';

/**
 * The annotator's calls (spec part 1 §7 "Metadata"), the overview and its CSV, and the annotated
 * datasets (part 2 §7). A dataset uri in the path is one URL-encoded segment (%2F for its slashes).
 */
export const metadataRoutes: FastifyPluginAsyncZod<{ metadata: MetadataService }> = async (app, { metadata }) => {
  const tags = ['Metadata'];

  app.get(
    '/pim/metadata/getFields',
    {
      schema: {
        tags,
        summary: 'The fields of a field set, in order',
        querystring: getFieldsQuery,
        response: { 200: z.array(pimFieldSchema), ...errorResponses },
      },
    },
    async (req) => (await metadata.fields(req.principal, req.query.id)).map(presentField),
  );

  app.post(
    '/pim/metadata/create',
    {
      schema: {
        tags,
        summary: 'Store the values of one image under a field set (replacing what was stored); answers what is now stored',
        body: createMetadataRequestSchema,
        response: { 200: storedMetadataSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => (await metadata.save(req.principal, req.body)).map(presentStoredValue),
  );

  app.get(
    '/pim/metadata/get',
    {
      schema: {
        tags,
        summary: 'What is stored for an image under a field set (empty when nothing is)',
        querystring: getMetadataQuery,
        response: { 200: storedMetadataSchema, ...errorResponses },
      },
    },
    async (req) => (await metadata.stored(req.principal, req.query.uri, req.query.fieldsetid)).map(presentStoredValue),
  );

  app.get(
    '/pim/metadata/annotateddatasets',
    {
      schema: {
        tags,
        summary: 'Datasets (manifests) with annotated images the caller may see, by name',
        querystring: onlyOwnDataQuery,
        response: { 200: annotatedDatasetListSchema, ...errorResponses },
      },
    },
    async (req) => (await metadata.datasets(req.principal, req.query.onlyOwnData)).map(presentAnnotatedDataset),
  );

  app.get(
    '/pim/metadata/annotateddatasets/:datasetUri',
    {
      schema: {
        tags,
        summary: 'The annotated images of a dataset with the field sets they were annotated with',
        params: annotatedDatasetParams,
        querystring: onlyOwnDataQuery,
        response: { 200: annotatedImageListSchema, ...errorResponses },
      },
    },
    async (req) => (await metadata.datasetImages(req.principal, req.params.datasetUri, req.query.onlyOwnData)).map(presentAnnotatedImage),
  );

  app.get(
    '/pim/metadata/:uri/:fieldsetid',
    {
      schema: {
        tags,
        summary: 'The metadata overview of a dataset under a field set: one row per annotated image',
        params: metadataOverviewParams,
        response: { 200: metadataOverviewSchema, ...errorResponses },
      },
    },
    async (req) => presentOverview(await metadata.overview(req.principal, req.params.uri, req.params.fieldsetid)),
  );

  app.get(
    '/pim/metadata/:uri/:fieldsetid/export',
    {
      schema: {
        tags,
        summary: `The overview as ${METADATA_CSV_FILE_NAME} (RFC 4180, UTF-8 with a byte order mark)`,
        params: metadataOverviewParams,
        response: errorResponses,
      },
    },
    async (req, reply) => sendCsv(reply, presentOverviewCsv(await metadata.overview(req.principal, req.params.uri, req.params.fieldsetid))),
  );
};

function sendCsv(reply: FastifyReply, csv: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${METADATA_CSV_FILE_NAME}"`)
    .send(csv);
}
