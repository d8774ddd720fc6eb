import {
  errorResponseSchema,
  saveSearchIndexRequestSchema,
  searchIndexAutocompleteResponseSchema,
  searchIndexImageSetsSchema,
  searchIndexListSchema,
  searchIndexParams,
  searchIndexSchema,
  typeaheadQuery,
} from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { SearchIndexRecord } from './repository.js';
import type { SearchIndexService } from './service.js';

const present = (index: SearchIndexRecord) => ({ uuid: index.id, name: index.name });

/** Search indices (spec part 1 §7 "Search indices") and the picker of the image set settings. */
export const searchIndexRoutes: FastifyPluginAsyncZod<{ searchIndices: SearchIndexService }> = async (app, { searchIndices }) => {
  const tags = ['Search indices'];

  app.get(
    '/pim/elasticsearchindex',
    { schema: { tags, summary: 'Every search index, by name', response: { 200: searchIndexListSchema, ...errorResponses } } },
    async (req) => (await searchIndices.list(req.principal)).map(present),
  );

  app.get(
    '/pim/elasticsearchindex/autocomplete',
    {
      schema: {
        tags,
        summary: 'Search indices whose name contains the filter, a page at a time',
        querystring: typeaheadQuery,
        response: { 200: searchIndexAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await searchIndices.autocomplete(req.principal, req.query);
      return { results: page.results.map(present), pageSize: page.pageSize };
    },
  );

  app.get(
    '/pim/elasticsearchindex/:uuid',
    {
      schema: { tags, summary: 'One search index', params: searchIndexParams, response: { 200: searchIndexSchema, ...errorResponses } },
    },
    async (req) => present(await searchIndices.get(req.principal, req.params.uuid)),
  );

  app.post(
    '/pim/elasticsearchindex',
    {
      schema: {
        tags,
        summary: 'Create a search index (admin)',
        body: saveSearchIndexRequestSchema,
        response: { 200: searchIndexSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => present(await searchIndices.create(req.principal, req.body)),
  );

  app.put(
    '/pim/elasticsearchindex/:uuid',
    {
      schema: {
        tags,
        summary: 'Rename a search index (admin)',
        params: searchIndexParams,
        body: saveSearchIndexRequestSchema,
        response: { 200: searchIndexSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => present(await searchIndices.rename(req.principal, req.params.uuid, req.body)),
  );

  app.get(
    '/pim/elasticsearchindex/:uuid/documentimagesets',
    {
      schema: {
        tags,
        summary: 'The image sets that use the index (of those the caller may see)',
        params: searchIndexParams,
        response: { 200: searchIndexImageSetsSchema, ...errorResponses },
      },
    },
    async (req) => (await searchIndices.imageSets(req.principal, req.params.uuid)).map((s) => ({ uuid: s.id, name: s.name })),
  );
};
