import { groupAutocompleteResponseSchema, typeaheadQuery } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentGroupRef } from './presenter.js';
import type { GroupService } from './service.js';

/** What other screens need of groups so far: the group picker of the ACL editor. */
export const groupRoutes: FastifyPluginAsyncZod<{ groups: GroupService }> = async (app, { groups }) => {
  app.get(
    '/pim/pimgroups/autocomplete',
    {
      schema: {
        tags: ['Groups'],
        summary: 'Groups whose name contains the filter, a page at a time',
        querystring: typeaheadQuery,
        response: { 200: groupAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await groups.autocomplete(req.principal, req.query);
      return { results: page.results.map(presentGroupRef), pageSize: page.pageSize };
    },
  );
};
