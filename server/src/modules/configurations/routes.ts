import {
  configurationIdParams,
  configurationListSchema,
  configurationParams,
  configurationSchema,
  errorResponseSchema,
  saveConfigurationRequestSchema,
} from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentConfiguration } from './presenter.js';
import type { ConfigurationService } from './service.js';

/** Configurations (spec part 1 §7 "Configurations"): server settings, administrators only. */
export const configurationRoutes: FastifyPluginAsyncZod<{ configurations: ConfigurationService }> = async (app, { configurations }) => {
  const tags = ['Configurations'];

  app.get(
    '/pim/configuration/index',
    { schema: { tags, summary: 'Every configuration, by key (admins)', response: { 200: configurationListSchema, ...errorResponses } } },
    async (req) => (await configurations.list(req.principal)).map(presentConfiguration),
  );

  app.get(
    '/pim/configuration/:id',
    {
      schema: {
        tags,
        summary: 'One configuration, by its uuid or its serial id (admins)',
        params: configurationIdParams,
        response: { 200: configurationSchema, ...errorResponses },
      },
    },
    async (req) => presentConfiguration(await configurations.get(req.principal, req.params.id)),
  );

  app.post(
    '/pim/configuration/create',
    {
      schema: {
        tags,
        summary: 'Create a configuration; keys are unique (admins)',
        body: saveConfigurationRequestSchema,
        response: { 200: configurationSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => presentConfiguration(await configurations.create(req.principal, req.body)),
  );

  app.put(
    '/pim/configuration/:uuid',
    {
      schema: {
        tags,
        summary: 'Change the key and value of a configuration (admins)',
        params: configurationParams,
        body: saveConfigurationRequestSchema,
        response: { 200: configurationSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => presentConfiguration(await configurations.update(req.principal, req.params.uuid, req.body)),
  );

  app.delete(
    '/pim/configuration/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a configuration (admins)',
        params: configurationParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await configurations.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
