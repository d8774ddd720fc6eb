import {
  environmentListSchema,
  environmentParams,
  environmentSchema,
  errorResponseSchema,
  saveEnvironmentRequestSchema,
} from '@pim/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { LinksOf } from '../../platform/http/public-url.js';
import { presentEnvironment } from './presenter.js';
import type { EnvironmentService } from './service.js';

/** Environments of the public search front-ends (spec part 1 §7 "Environments"): administrators only. */
export const environmentRoutes: FastifyPluginAsyncZod<{ environments: EnvironmentService; links: LinksOf }> = async (
  app,
  { environments, links },
) => {
  const tags = ['Environments'];
  // The Apache configuration proxies to this server at the address the admin reached it by.
  const present = (req: FastifyRequest, row: Parameters<typeof presentEnvironment>[0]) => presentEnvironment(row, links(req));

  app.get(
    '/pim/environment',
    { schema: { tags, summary: 'Every environment, by title (admins)', response: { 200: environmentListSchema, ...errorResponses } } },
    async (req) => (await environments.list(req.principal)).map((row) => present(req, row)),
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
    async (req) => present(req, await environments.get(req.principal, req.params.uuid)),
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
    async (req) => present(req, await environments.create(req.principal, req.body)),
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
    async (req) => present(req, await environments.update(req.principal, req.params.uuid, req.body)),
  );
};
