import {
  typeaheadQuery,
  updateUserRequestSchema,
  userAutocompleteResponseSchema,
  userListSchema,
  userParams,
  userRoleListSchema,
  userSchema,
} from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@pim/contract';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentUser } from './presenter.js';
import type { UserService } from './service.js';

/** Users (spec part 2 §7 "Users and groups"): the list and form for admins, everyone's own record, the user picker. */
export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  const tags = ['Users'];
  const withConflict = { 200: userSchema, ...errorResponses, 409: errorResponseSchema };

  app.get(
    '/pim/users',
    { schema: { tags, summary: 'Every user by name, with their groups (admins)', response: { 200: userListSchema, ...errorResponses } } },
    async (req) => (await users.list(req.principal)).map(presentUser),
  );

  app.get(
    '/pim/users/self',
    { schema: { tags, summary: "The signed-in user's own record", response: { 200: userSchema, ...errorResponses } } },
    async (req) => presentUser(await users.self(req.principal)),
  );

  app.get(
    '/pim/users/possibleroles',
    { schema: { tags, summary: 'The roles an administrator may give a user', response: { 200: userRoleListSchema, ...errorResponses } } },
    (req) => [...users.possibleRoles(req.principal)],
  );

  app.get(
    '/pim/users/autocomplete',
    {
      schema: {
        tags,
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

  app.get(
    '/pim/users/:uuid',
    {
      schema: { tags, summary: "A user's record: one's own ('self'), or anyone's for admins", params: userParams, response: { 200: userSchema, ...errorResponses } },
    },
    async (req) => presentUser(await users.get(req.principal, req.params.uuid)),
  );

  app.post(
    '/pim/users/:uuid/update',
    {
      schema: {
        tags,
        summary: 'Change a user: name, avatar and primary group of oneself; also roles of others (admins). Answers the user',
        params: userParams,
        body: updateUserRequestSchema,
        response: withConflict,
      },
    },
    async (req) => presentUser(await users.update(req.principal, req.params.uuid, req.body)),
  );

  for (const [action, disabled] of [
    ['enable', false],
    ['disable', true],
  ] as const) {
    app.put(
      `/pim/users/:uuid/${action}`,
      {
        schema: {
          tags,
          summary: disabled ? "Disable a user and end their sessions (admins; never the last active admin)" : 'Enable a user (admins)',
          params: userParams,
          response: withConflict,
        },
      },
      async (req) => presentUser(await users.setDisabledBy(req.principal, req.params.uuid, disabled)),
    );
  }
};
