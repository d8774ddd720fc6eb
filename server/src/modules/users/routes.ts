import { typeaheadQuery, userAutocompleteResponseSchema, userSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentUser } from './presenter.js';
import type { UserService } from './service.js';

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/pim/users/self',
    {
      schema: {
        tags: ['Users'],
        summary: "The signed-in user's own record",
        response: { 200: userSchema, ...errorResponses },
      },
    },
    async (req) => presentUser(await users.self(req.principal)),
  );

  app.get(
    '/pim/users/autocomplete',
    {
      schema: {
        tags: ['Users'],
        summary: 'Live, enabled users whose name or email contains the filter, a page at a time (names only)',
        querystring: typeaheadQuery,
        response: { 200: userAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await users.autocomplete(req.principal, req.query);
      return { results: page.results.map((u) => ({ uuid: u.id, name: u.name })), pageSize: page.pageSize };
    },
  );
};
