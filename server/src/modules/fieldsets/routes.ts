import {
  fieldSetAutocompleteQuery,
  fieldSetAutocompleteResponseSchema,
  fieldSetParams,
  fieldTypesResponseSchema,
  onlyOwnDataQuery,
  pimFieldAutocompleteResponseSchema,
  pimFieldSetListSchema,
  pimFieldSetSchema,
  savePimFieldSetRequestSchema,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentFieldSet, presentFieldSetSummary } from './presenter.js';
import type { FieldSetService } from './service.js';

/** Field sets (spec part 2 §7 "Field sets") and the pickers of sets and of their fields. */
export const fieldSetRoutes: FastifyPluginAsyncZod<{ fieldSets: FieldSetService }> = async (app, { fieldSets }) => {
  const tags = ['Field sets'];

  app.get(
    '/pim/pimfieldset',
    {
      schema: {
        tags,
        summary: 'Field sets the caller may see, by name (only their own with onlyOwnData=true)',
        querystring: onlyOwnDataQuery,
        response: { 200: pimFieldSetListSchema, ...errorResponses },
      },
    },
    async (req) => (await fieldSets.list(req.principal, req.query.onlyOwnData)).map(presentFieldSetSummary),
  );

  app.get(
    '/pim/pimfieldset/autocomplete',
    {
      schema: {
        tags,
        summary: 'Field sets whose name contains the filter, a page at a time',
        querystring: fieldSetAutocompleteQuery,
        response: { 200: fieldSetAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await fieldSets.autocomplete(req.principal, req.query);
      return { results: page.results.map((s) => ({ uuid: s.id, name: s.name })), pageSize: page.pageSize };
    },
  );

  app.get(
    '/pim/pimfieldset/:uuid',
    {
      schema: { tags, summary: 'One field set with its fields in order', params: fieldSetParams, response: { 200: pimFieldSetSchema, ...errorResponses } },
    },
    async (req) => presentFieldSet(await fieldSets.get(req.principal, req.params.uuid)),
  );

  app.get(
    '/pim/pimfieldset/:uuid/pimfields/autocomplete',
    {
      schema: {
        tags,
        summary: 'Fields of a set whose label or name contains the filter, in the order of the set',
        params: fieldSetParams,
        querystring: fieldSetAutocompleteQuery,
        response: { 200: pimFieldAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await fieldSets.fieldAutocomplete(req.principal, req.params.uuid, req.query);
      return {
        results: page.results.map((f) => ({ uuid: f.id, name: f.name, label: f.label, type: f.type })),
        pageSize: page.pageSize,
      };
    },
  );

  app.post(
    '/pim/pimfieldset/create',
    {
      schema: {
        tags,
        summary: 'Create a field set owned by the caller',
        body: savePimFieldSetRequestSchema,
        response: { 200: pimFieldSetSchema, ...errorResponses },
      },
    },
    async (req) => presentFieldSet(await fieldSets.create(req.principal, req.body)),
  );

  app.post(
    '/pim/pimfieldset/:uuid/update',
    {
      schema: {
        tags,
        summary: 'Replace a field set: its name, visibility and fields (owner or admin)',
        params: fieldSetParams,
        body: savePimFieldSetRequestSchema,
        response: { 200: pimFieldSetSchema, ...errorResponses },
      },
    },
    async (req) => presentFieldSet(await fieldSets.update(req.principal, req.params.uuid, req.body)),
  );

  app.delete(
    '/pim/pimfieldset/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a field set with every value stored under it (owner or admin)',
        params: fieldSetParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await fieldSets.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/metadata/fieldtypes',
    { schema: { tags, summary: 'The types a field can have', response: { 200: fieldTypesResponseSchema, ...errorResponses } } },
    async (req) => [...fieldSets.fieldTypes(req.principal)],
  );
};
