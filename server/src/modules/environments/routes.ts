import {
  environmentListSchema,
  environmentParams,
  environmentSchema,
  errorResponseSchema,
  saveEnvironmentRequestSchema,
} from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { ServerUrls } from './apache-config.js';
import { presentEnvironment } from './presenter.js';
import type { EnvironmentService } from './service.js';

/** Environments of the public search front-ends (spec part 1 §7 "Environments"): administrators only. */
export const environmentRoutes: FastifyPluginAsyncZod<{ environments: EnvironmentService; server: ServerUrls }> = async (
  app,
  { environments, server },
) => {
  const tags = ['Environments'];
  const present = (row: Parameters<typeof presentEnvironment>[0]) => presentEnvironment(row, server);

  app.get(
    '/pim/environment',
    { schema: { tags, summary: 'Every environment, by title (admins)', response: { 200: environmentListSchema, ...errorResponses } } },
    async (req) => (await environments.list(req.principal)).map(present),
  );

  app.get(
    '/pim/environment/:uuid',
    {
      schema: {
        tags,
        summary: 'One environment with its derived domain and Apache configuration (admins)',
        params: environmentParams,
        response: { 200: environmentSchema, ...errorResponses },
      },
    },
    async (req) => present(await environments.get(req.principal, req.params.uuid)),
  );

  app.post(
    '/pim/environment',
    {
      schema: {
        tags,
        summary: 'Create an environment; paths are unique, domain and generateApacheConfig are derived (admins)',
        body: saveEnvironmentRequestSchema,
        response: { 200: environmentSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => present(await environments.create(req.principal, req.body)),
  );

  app.put(
    '/pim/environment/:uuid',
    {
      schema: {
        tags,
        summary: 'Change every field of an environment (admins)',
        params: environmentParams,
        body: saveEnvironmentRequestSchema,
        response: { 200: environmentSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => present(await environments.update(req.principal, req.params.uuid, req.body)),
  );
};
