import { apiKeyListSchema, apiKeyParams, apiKeyRoleListSchema, createApiKeyRequestSchema, createdApiKeySchema, apiKeySchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@pim/contract';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentApiKey } from './presenter.js';
import type { ApiKeyService } from './service.js';

/** API keys / minions (spec part 1 §7 "API keys"): administrators only. */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  const tags = ['API keys'];

  app.get(
    '/pim/apikey',
    { schema: { tags, summary: 'Every API key, newest first, each shown by its first characters (admins)', response: { 200: apiKeyListSchema, ...errorResponses } } },
    async (req) => (await apiKeys.list(req.principal)).map((row) => presentApiKey(row)),
  );

  app.get(
    '/pim/apikey/possibleroles',
    { schema: { tags, summary: 'The roles an API key can have (admins)', response: { 200: apiKeyRoleListSchema, ...errorResponses } } },
    (req) => [...apiKeys.possibleRoles(req.principal)],
  );

  app.post(
    '/pim/apikey',
    {
      schema: {
        tags,
        summary: 'Create an API key; the answer holds the whole key, which is never shown again (admins)',
        body: createApiKeyRequestSchema,
        response: { 200: createdApiKeySchema, ...errorResponses },
      },
    },
    async (req) => {
      const { row, apiKey } = await apiKeys.createBy(req.principal, req.body);
      return presentApiKey(row, apiKey);
    },
  );

  for (const [action, disabled] of [
    ['enable', false],
    ['disable', true],
  ] as const) {
    app.put(
      `/pim/apikey/:key/${action}`,
      {
        schema: {
          tags,
          summary: `${disabled ? 'Disable' : 'Enable'} an API key, named by its id or its first characters (admins)`,
          params: apiKeyParams,
          response: { 200: apiKeySchema, ...errorResponses, 409: errorResponseSchema },
        },
      },
      async (req) => presentApiKey(await apiKeys.setDisabled(req.principal, req.params.key, disabled)),
    );
  }
};
